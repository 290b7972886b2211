/**
 * The traces this project measured itself with `ckpt harness`, each reported next to the
 * published Azur model: each gets its own ingest and fit stages (`ingest-<key>`,
 * `fit-<key>`, artifacts `<key>-observations`, `<key>-model`, `<key>-fit`), so that editing
 * one trace reruns only its branch and the report. The trace and the words about it live
 * here; data/traces/<name>.README.md says how each was measured.
 */
export interface MeasuredCluster {
  /** Names the stages, artifacts, figures and the report section. */
  key: string;
  /** The default trace (a stage parameter: `--param ingest-<key>.traces=…`), relative to the project root. */
  trace: string;
  /** Who was measured, in a sentence (short: it goes into legends): "this machine", "the NFS cluster". */
  who: string;
  /** The report section's title and introduction. */
  title: string;
  intro: (tracePaths: string) => string;
}

export const MEASURED_CLUSTERS: readonly MeasuredCluster[] = [
  {
    key: "machine",
    trace: "data/traces/vm-2vcpu-ext4-fsync.csv",
    who: "this machine",
    title: "This machine against the Azur model",
    intro: (paths) =>
      `Checkpoint bandwidth measured with ckpt harness on a machine of this project (${paths}; ` +
      `its README in data/traces/ describes the machine and the sweep), fitted with the papers' method, next to the published ` +
      `model of the Azur cluster. Read the curves and the coefficients as two recalibrations of one form, not as one ` +
      `measurement: the README says how that machine differs from thirty nodes writing to one NFS server.`,
  },
  {
    key: "nfs",
    trace: "data/traces/nfs-8x100mbit.csv",
    who: "the NFS cluster",
    title: "An emulated NFS cluster against the Azur model",
    intro: (paths) =>
      `Checkpoint bandwidth measured with ckpt harness on an emulated cluster of this project (${paths}; its README in ` +
      `data/traces/ says how): up to 8 client nodes, each in its own network namespace behind a 100 Mbit/s link, ` +
      `write their images at the same time to one NFS server that receives at most 400 Mbit/s. By design the aggregate ` +
      `bandwidth grows with m until the server's link is full (12.5 MB/s per writer, 50 MB/s in all), then stays flat: ` +
      `the papers' setting — many nodes, one NFS server — in miniature, fitted with the papers' method.`,
  },
];
