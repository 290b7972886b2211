/**
 * The ingest stage: the trace files (`--traces`, default the shipped synthetic Azur-like
 * campaign) → the observations artifact (runs, size series with peaks, validation runs,
 * counts, provenance) and `rejects.csv` (every rejected row with its file, line and
 * reason: read = accepted + rejected).
 */
import { ingestFiles } from "../ingest/ingest-files";
import { buildObservationsArtifact } from "../ingest/observations-artifact";
import { REJECTS_CSV_HEADER, rejectToCsvLine } from "../ingest/rejects-csv";
import type { Stage } from "../runner/stage";
import { TOOL_VERSION } from "../shared/version";

export interface IngestStageParameters {
  /** Run attributes (extra trace columns) that keep series apart: `dataset` separates D1–D3 from the size series. */
  groupBy: string[];
  /** Stop at the first bad row instead of listing it in rejects.csv. */
  strict: boolean;
}

export const ingestStage: Stage<IngestStageParameters> = {
  name: "ingest",
  summary: "traces → observations (runs, size series with peaks) and rejects.csv",
  inputs: [],
  outputs: ["observations"],
  module: __filename,
  defaults: { groupBy: ["dataset"], strict: false },
  inputFiles: ({ traces }) => traces,
  async run(context) {
    const { groupBy, strict } = context.parameters;
    const result = await ingestFiles(context.traces, { groupBy, strict });
    const { read, accepted, rejected } = result.counts;
    context.progress(`read ${read} rows = ${accepted} accepted + ${rejected} rejected; ${result.observations.series.length} size series, ${result.observations.validationRuns.length} mixed-size runs`);
    const rejects = [REJECTS_CSV_HEADER, ...result.rejects.map(rejectToCsvLine)].join("\n");
    return {
      artifacts: {
        observations: buildObservationsArtifact(result, { toolVersion: TOOL_VERSION, format: "auto", strict, groupBy, rejectsFile: "rejects.csv" }),
      },
      files: [{ path: "rejects.csv", content: `${rejects}\n` }],
    };
  },
};
