/**
 * The report stage's parameters and their defaults, apart from the report's content and
 * renderers so that listing the pipeline's parameters does not load them.
 */
export interface ReportParameters {
  /**
   * "reproduction": the papers' reproduction with the project's sample traces; "cluster": a
   * report about the traces given (`ckpt pipeline --traces`), with Azur once, as a comparison.
   */
  mode: "reproduction" | "cluster";
  /** A cluster's report: also the published model, the desktop grids and the reproduction table (`--with reproduction`). */
  withReproduction: boolean;
  /** The cluster the report describes (`ckpt pipeline --cluster`); "" = from the traces' `cluster` column, else their file names. */
  cluster: string;
  /** Tolerances of the reproduction verdicts (see model-reproduction-rows.ts). */
  reproduction: { bandwidthRelative: number; peakM: number };
}

export const DEFAULT_REPORT_PARAMETERS: ReportParameters = {
  mode: "reproduction",
  withReproduction: true,
  cluster: "",
  reproduction: { bandwidthRelative: 0.05, peakM: 1 },
};
