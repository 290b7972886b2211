/**
 * The report stage: figures as Vega-Lite v5 specs built by pure functions, validated
 * against the Vega-Lite JSON schema and rendered without node-canvas to SVG, PNG and PDF;
 * tables as CSV, LaTeX and HTML; the reproduction table; the self-contained report page;
 * display in notebooks.
 */
export * from "./theme";
export * from "./figure";
export * from "./chart-frame";
export * from "./table";
export * from "./table-to-csv";
export * from "./table-to-latex";
export * from "./table-to-html";
export * from "./published-values";
export * from "./model-curve";
export * from "./measured-series";
export * from "./peak-curves-spec";
export * from "./model-surface-spec";
export * from "./residuals-spec";
export * from "./observed-predicted-spec";
export * from "./gantt-spec";
export * from "./interval-chart-spec";
export * from "./series-lines-spec";
export * from "./grouped-bars-spec";
export * from "./placement-timeline-spec";
export * from "./waste-by-policy-spec";
export * from "./model-figures";
export * from "./model-card";
export * from "./reproduction";
export * from "./model-reproduction-rows";
export * from "./place-figures";
export * from "./measured-figures";
export * from "./fit-figures";
export * from "./schedule-figures";
export * from "./machine-figures";
export * from "./side-by-side-spec";
export * from "./report-content";
export * from "./validate-spec";
export * from "./render-svg";
export * from "./render-png";
export * from "./render-pdf";
export * from "./render-report";
export * from "./report-html";
export * from "./notebook-display";
