/**
 * The report stage's parameters and their defaults, apart from the report's content and
 * renderers so that listing the pipeline's parameters does not load them.
 */
export interface ReportParameters {
  /** The cluster the report describes (`ckpt pipeline --cluster`); "" = from the traces' `cluster` column, else their file names. */
  cluster: string;
  /** Tolerances of the reproduction verdicts (see model-reproduction-rows.ts). */
  reproduction: { bandwidthRelative: number; peakM: number };
}

export const DEFAULT_REPORT_PARAMETERS: ReportParameters = {
  cluster: "",
  reproduction: { bandwidthRelative: 0.05, peakM: 1 },
};
