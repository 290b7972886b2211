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
  /**
   * The paper width the figures are fitted to, axes and legends included: "column" (3.5 in),
   * "page" (both columns, 7.16 in) or "auto" (each chart at the width its kind is drawn for).
   */
  figureWidth: string;
}

export const DEFAULT_REPORT_PARAMETERS: ReportParameters = {
  mode: "reproduction",
  withReproduction: true,
  cluster: "",
  figureWidth: "auto",
};

export const FIGURE_WIDTHS = ["auto", "column", "page"] as const;
