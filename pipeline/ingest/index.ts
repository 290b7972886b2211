/** The ingest stage: trace formats, validation with rejects, aggregation into observations. */
export * from "./observations";
export * from "./ingest-files";
export * from "./observations-artifact";
export * from "./summarise-runs";
export * from "./reject-reasons";
export * from "./rejects-csv";
export { parseDecimal, parseDecimalBytes } from "./decimal";
export { memorySource, openFileSource, type ByteSource } from "./byte-source";
export { RunTable } from "./run-table";
export type { CanonicalParser } from "./canonical-reader";
export { HOST_EVENT_LOG, type HostLogRun } from "./host-logs-reader";
export { parseHostLogLine, type HostLogEvent } from "./host-log-event";
export * from "./published-azur-data";
export * from "./synthetic-azur";
export * from "./synthetic-cluster";
