/**
 * The report stage: figures as Vega-Lite v5 specs built by pure functions, validated
 * against the Vega-Lite JSON schema and rendered without node-canvas to SVG, PNG and PDF;
 * tables as CSV, LaTeX and HTML; the reproduction table; the self-contained report page;
 * display in notebooks.
 */
export * from "./figures/theme";
export * from "./figures/figure";
export * from "./figures/chart-frame";
export * from "./tables/table";
export * from "./tables/table-to-csv";
export * from "./tables/table-to-latex";
export * from "./tables/table-to-html";
export * from "./figures/measured-series";
export * from "./figures/peak-curves-spec";
export * from "./figures/model-surface-spec";
export * from "./figures/residuals-spec";
export * from "./figures/observed-predicted-spec";
export * from "./figures/gantt-spec";
export * from "./figures/interval-chart-spec";
export * from "./figures/series-lines-spec";
export * from "./figures/grouped-bars-spec";
export * from "./figures/placement-timeline-spec";
export * from "./figures/waste-by-policy-spec";
export * from "./figures/model-figures";
export * from "./tables/model-card";
export * from "./reproduction/reproduction-table";
export * from "./reproduction/reproduction-summary";
export * from "./figures/place-figures";
export * from "./figures/measured-figures";
export * from "./figures/fit-figures";
export * from "./figures/candidates-figures";
export * from "./figures/model-axes";
export * from "./figures/schedule-figures";
export * from "./figures/machine-figures";
export * from "./figures/bkt-figures";
export * from "./figures/das06-figures";
export * from "./figures/side-by-side-spec";
export * from "./page/report-content";
export * from "./figures/validate-spec";
export * from "./render/render-svg";
export * from "./render/fit-to-width";
export * from "./figures/interval-bounds";
export * from "./render/render-png";
export * from "./render/render-pdf";
export * from "./page/render-report";
export * from "./page/report-html";
export * from "./render/notebook-display";
// The artifacts the report draws, typed where their producers define them (for notebooks).
export type { FitReportArtifact } from "../fit/fit-report-artifact";
export type { ScenarioPlacement } from "../place/scenario-placement";
export type { ScheduleExample } from "../schedule/schedule-example";
export { candidateModel } from "../fit/candidate-model";
