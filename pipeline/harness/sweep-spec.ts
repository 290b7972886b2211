/**
 * A sweep: the declarative description of a measurement campaign (docs/science.md §3.1), as read
 * from a sweep file and checked by `parseSweep`.
 *
 * The smallest sweep file is
 *
 *     { "backend": "emulate", "dir": "/tmp/ckpt-target", "m": [1, 2, 4], "sizeMb": [8, 32], "repetitions": 3 }
 *
 * i.e. every (m, size) pair, three times, with the emulator writing to `dir`. Richer files
 * add axes (`sync`), mixed-size runs (`sizeSetsMb`), sub-sweeps that apply only to some
 * values (`sweeps`, each inheriting the top-level fields), exclusions, the run order, and
 * the `command` backend's template and application, the `fio` backend's options, and the launcher (here, ssh, srun)
 * that puts the processes of a run on the nodes of a cluster.
 */

/** How the emulator makes the device absorb the image before it stops the clock. */
export type SyncMode = "fsync" | "dsync" | "none";
export const SYNC_MODES: readonly SyncMode[] = ["fsync", "dsync", "none"];

export type BackendName = "emulate" | "command" | "fio";
export const BACKENDS: readonly BackendName[] = ["emulate", "command", "fio"];

/** Where the `command` backend runs each process: here, over ssh, or as a Slurm step. */
export type LauncherKind = "local" | "ssh" | "srun";
export const LAUNCHERS: readonly LauncherKind[] = ["local", "ssh", "srun"];

export type RunOrder = "random" | "grid";

/** The fields a sweep (or one of its sub-sweeps) may set, after validation. */
export interface SweepFields {
  backend: BackendName;
  /** Target directory: where the checkpoint images are written (the device measured). */
  dir: string;
  /** Process counts (simultaneous checkpoints per run). */
  m: number[];
  /** Application sizes in MB (10^6 bytes): every process of a run has the same size. */
  sizeMb: number[];
  /** Mixed-size runs: each entry lists one size per process (m = its length). */
  sizeSetsMb: number[][];
  repetitions: number;
  /** emulate: fsync before stopping the clock (default), O_DSYNC on every write, or none. */
  sync: SyncMode[];
  /** emulate: image pages per write (1 = two write() per page, as BLCR does; more = one writev() of 2k buffers, at most 512 pages). */
  pagesPerWrite: number;
  /** A run still going after this many seconds is killed and marked failed. */
  timeoutS: number;
  /** Idle seconds before each run, so the previous run's write-back does not leak in. */
  pauseS: number;
  /** Keep the written images (default: delete them after each run). */
  keepFiles: boolean;
  /** command: the checkpoint command per process, with {node} {pid} {size_mb} {dir} {run_id} {index}. */
  command: string | null;
  /** command: the application to start (and checkpoint) per process; gives {pid}. */
  app: string | null;
  /** command: seconds to wait for the application to reach its size in memory. */
  appReadyTimeoutS: number;
  /** Where the processes run: here (default), over ssh, or as Slurm steps. */
  launcher: LauncherKind;
  /** ssh/srun: the nodes (process i of a run goes to node i mod |nodes|); or --nodes-file. */
  nodes: string[];
  /** ssh: the remote shell argv, `{node}` replaced (e.g. ["oarsh", "{node}"]). */
  remoteShell: string[];
  /** ssh/srun: how many processes of one run may share a node. */
  processesPerNode: number;
  /** fio: with `sync` "fsync", fsync when the file is closed (`fsync_on_close=1`) rather than at the job's end (`end_fsync=1`). */
  fsyncOnClose?: boolean;
  /** fio: O_DIRECT writes (`direct=1`), past the page cache. */
  direct?: boolean;
  /** fio: KiB per write (`bs`); 1024 by default, about the emulator's 256 pages per write. */
  blockSizeKib?: number;
}

/** The fio backend's defaults (set on its sub-sweeps only, so other sweeps hash as before). */
export const FIO_DEFAULTS = { fsyncOnClose: false, direct: false, blockSizeKib: 1024 };

/** A matcher: a combination is excluded when it matches every field given. */
export interface ExcludeRule {
  m?: number[];
  sizeMb?: number[];
  sync?: SyncMode[];
}

export interface SubSweep extends SweepFields {
  exclude: ExcludeRule[];
}

export interface Sweep {
  name: string;
  /** Optional label written to the trace's `cluster` column. */
  cluster: string | null;
  order: RunOrder;
  /** Seed of the random run order. */
  seed: number;
  /** The sub-sweeps to run (one when the file has no `sweeps`), fields already inherited. */
  subSweeps: SubSweep[];
}

export const SWEEP_DEFAULTS = {
  dir: "/tmp/ckpt-target",
  repetitions: 1,
  sync: ["fsync"] as SyncMode[],
  pagesPerWrite: 256,
  timeoutS: 600,
  pauseS: 0,
  keepFiles: false,
  appReadyTimeoutS: 120,
  launcher: "local" as LauncherKind,
  remoteShell: ["ssh", "-o", "BatchMode=yes", "{node}"],
  processesPerNode: 1,
  order: "random" as RunOrder,
  seed: 1,
};

/** Placeholders a command or app template may use. */
export const TEMPLATE_PLACEHOLDERS = ["node", "pid", "size_mb", "dir", "run_id", "index"] as const;
