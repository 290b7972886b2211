/**
 * The ingest stages: trace files → an observations artifact (runs, size series with
 * peaks, validation runs, counts, provenance) and a rejects file (every rejected row with
 * its file, line and reason: read = accepted + rejected).
 *
 * `ingest` reads the pipeline's traces (`--traces`, default the shipped synthetic
 * Azur-like campaign); `ingest-machine`, `ingest-nfs`, … each read a trace this project
 * measured with `ckpt harness` (a parameter; measured-clusters.ts), so that each trace
 * reruns only its own branch.
 */
import type { RejectedRow } from "../ingest/ingest-files";
import type { Stage } from "../runner/stage";
import { InputError } from "../shared/errors";
import { TOOL_VERSION } from "../shared/version";
import { MEASURED_CLUSTERS } from "./measured-clusters";
import { projectPath } from "./project-path";

export interface IngestStageParameters {
  /** Run attributes (extra trace columns) that keep series apart: `dataset` separates D1–D3 from the size series. */
  groupBy: string[];
  /** Stop at the first bad row instead of listing it in the rejects file. */
  strict: boolean;
}

export interface MachineIngestParameters extends IngestStageParameters {
  /** Trace files or host-logs directories, relative to the project root. */
  traces: string[];
}

function ingestStageFor<P extends IngestStageParameters>(spec: {
  name: string;
  summary: string;
  output: string;
  rejectsFile: string;
  defaults: P;
  traces: (parameters: P, cliTraces: string[]) => string[];
}): Stage<P> {
  return {
    name: spec.name,
    summary: spec.summary,
    inputs: [],
    outputs: [spec.output],
    module: __filename,
    defaults: spec.defaults,
    inputFiles: ({ traces, parameters }) => spec.traces(parameters, traces),
    async run(context) {
      // Loaded when the stage runs, not with the stage list (see fit-stage.ts).
      const { ingestFiles } = await import("../ingest/ingest-files.js");
      const { buildObservationsArtifact } = await import("../ingest/observations-artifact.js");
      const { REJECTS_CSV_HEADER, rejectToCsvLine } = await import("../ingest/rejects-csv.js");
      const { groupBy, strict } = context.parameters;
      const result = await ingestFiles(spec.traces(context.parameters, context.traces), { groupBy, strict });
      const { read, accepted, rejected } = result.counts;
      if (read > 0 && accepted === 0) {
        // Said here, with the reasons, rather than by the fit stage as "no fit points".
        const { nothingAcceptedMessage } = await import("../ingest/reject-reasons.js");
        const firstOfCode = new Map<string, RejectedRow>();
        for (const row of result.rejects) if (row.code !== undefined && !firstOfCode.has(row.code)) firstOfCode.set(row.code, row);
        throw new InputError(`nothing to aggregate: ${nothingAcceptedMessage(read, result.rejectedByCode ?? {}, firstOfCode, null)}`);
      }
      context.progress(
        `read ${read} rows = ${accepted} accepted + ${rejected} rejected; ${result.observations.series.length} size series, ${result.observations.validationRuns.length} mixed-size runs`,
      );
      for (const warning of result.warnings ?? []) context.progress(`warning: ${warning}`);
      const rejects = [REJECTS_CSV_HEADER, ...result.rejects.map(rejectToCsvLine)].join("\n");
      return {
        artifacts: {
          [spec.output]: buildObservationsArtifact(result, { toolVersion: TOOL_VERSION, format: "auto", strict, groupBy, rejectsFile: spec.rejectsFile }),
        },
        files: [{ path: spec.rejectsFile, content: `${rejects}\n` }],
      };
    },
  };
}

export const ingestStage = ingestStageFor<IngestStageParameters>({
  name: "ingest",
  summary: "traces → observations (runs, size series with peaks) and rejects.csv",
  output: "observations",
  rejectsFile: "rejects.csv",
  defaults: { groupBy: ["dataset"], strict: false },
  traces: (_parameters, cliTraces) => cliTraces,
});

/** One per measured cluster (measured-clusters.ts): `ingest-machine`, `ingest-nfs`, … */
export const measuredIngestStages = MEASURED_CLUSTERS.map((cluster) =>
  ingestStageFor<MachineIngestParameters>({
    name: `ingest-${cluster.key}`,
    summary: `${cluster.who}'s trace (ckpt harness) → ${cluster.key}-observations and ${cluster.key}-rejects.csv`,
    output: `${cluster.key}-observations`,
    rejectsFile: `${cluster.key}-rejects.csv`,
    defaults: { traces: [cluster.trace], groupBy: [], strict: false },
    traces: (parameters) => parameters.traces.map(projectPath),
  }),
);
