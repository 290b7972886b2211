/** The ingest stage: trace formats, validation with rejects, aggregation into observations. */
export * from "./observations";
export * from "./ingest-files";
