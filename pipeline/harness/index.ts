/**
 * The harness stage: run checkpoint-bandwidth measurement campaigns (docs/science.md §3.1) and write
 * the traces the ingest stage reads. See docs/harness.md.
 *
 *     sweep file ─ parseSweep ─ planSweep ─ runSweep ─┬─ emulate backend (BLCR-pattern worker processes)
 *                                                     └─ command backend (templated checkpoint commands)
 *                                                   → <out>/trace.csv (canonical), <out>/host-logs/
 */
export * from "./sweep-spec";
export { parseSweep, validateSweep } from "./parse-sweep";
export { planSweep, type Combination, type SweepPlan } from "./plan-sweep";
export { runSweep, type RunOverrides, type SweepRunOptions, type SweepSummary, type FailedRun, type ProgressEvent } from "./run-sweep";
export { sweepStatus, type SweepStatus } from "./sweep-status";
export { runEmulated } from "./emulate-backend";
export { runCommand } from "./command-backend";
export type { BackendHooks, ProcessCheckpointResult, ProcessLog, RunResult } from "./run-result";
export { allocateTouchedMemory, blcrImageLayout, writeBlcrImage, PAGE_BYTES, PAGE_HEADER_BYTES, PREAMBLE_BYTES } from "./blcr-image";
export { traceHeader, traceRows, checkedRunRows, HARNESS_EXTRA_COLUMNS } from "./trace-rows";
export { hostLogLines } from "./host-logs";
export { batchScript, type BatchScriptInput, type Scheduler } from "./batch-script";
export { parseNodesFile, readNodesFile } from "./read-nodes-file";
export { formatProgress, estimateRemainingS, combinationWork, type ProgressSnapshot } from "./progress";
export { holdMemory } from "./hold-app";
