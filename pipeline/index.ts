/**
 * ckpt-lab as a library (what notebooks and other programs import). Data flows
 *
 *   harness → ingest → fit → schedule / place / simulate → reproduce → report
 *
 * traces    observations   bandwidth model   schedules, placements   figures, tables
 *
 * Each stage is a namespace of pure functions over plain data; files are read and
 * written only by the CLI (`pipeline/cli.ts`), the pipeline runner (`pipeline/run.ts`)
 * and notebooks.
 */
export * as harness from "./harness";
export * as ingest from "./ingest";
export * as fit from "./fit";
export * as schedule from "./schedule";
export * as place from "./place";
export * as reproduce from "./reproduce";
export * as report from "./report";
export * as simulate from "./simulate";
