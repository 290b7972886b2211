/** The ingest stage: trace formats, validation with rejects, aggregation into observations. */
export * from "./observations";
export * from "./ingest-files";
export * from "./reject-reasons";
export * from "./summarise-runs";
export * from "./decimal";
export { memorySource, openFileSource, type ByteSource } from "./byte-source";
export { HOST_EVENT_LOG, type HostLogRun } from "./host-logs-reader";
export { parseHostLogLine, type HostLogEvent } from "./host-log-event";
export type { CanonicalParser } from "./canonical-reader";
export * from "./observations-artifact";
export * from "./rejects-csv";
export * from "./published-azur-data";
export * from "./synthetic-azur";
