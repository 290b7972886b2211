/**
 * Which aggregated bandwidth a model is fitted on (docs/science.md §3.1.1): the papers' sum
 * of the writers' own bandwidths, or IOR's and fio's group report's bytes over the wall time.
 * The two agree when the writers are balanced — they start together and take the same time —
 * and otherwise the sum is the larger one, so a model must mean one of them: what V / bw(m, V)
 * estimates downstream (ScheduleCkpt's durations, the DP placer's costs, the simulators'
 * shares of the device) depends on it.
 *
 * Decision: one fit, one definition (runs of one writer, where the two coincide, go with
 * either). Runs of both in one set of observations are refused,
 * naming which inputs carry which: a run's bytes over the wall time cannot become the sum of
 * its writers' bandwidths without the writers' own times, which IOR's and fio's group
 * reports do not keep, and the other way round needs every writer's start and end, which only
 * the canonical traces hold (and they are the papers' sum already). The definition and what
 * it plans go into the model's provenance.
 */
import { BANDWIDTH_DEFINITIONS, bandwidthDefinitionOf, type BandwidthDefinition } from "../ingest/bandwidth-definition";
import type { Observations } from "../ingest/observations";
import { InputError } from "../shared/errors";

/** What V / bw(m, V) estimates under each definition, and what unbalanced writers do to it. */
export const WHAT_THE_MODEL_PLANS: Record<BandwidthDefinition, string> = {
  "sum-of-writers":
    "V / bw(m, V) estimates the harmonic mean of the writers' durations: the checkpoint's makespan when the writers are balanced, " +
    "shorter than it by W / H(t) when they are not (a late or slow writer does not lower the sum), so plans are optimistic on unbalanced writers",
  "bytes-over-wall-time":
    "V / bw(m, V) estimates the checkpoint's makespan, first start to last end, balanced or not: a slow or late writer lowers the bandwidth, " +
    "so plans include it (and are pessimistic for a writer that finishes early)",
};

export interface FittedBandwidthDefinition {
  bandwidthDefinition: BandwidthDefinition;
  /** The definition in words, and what the model's V / bw then plans. */
  bandwidthDefinitionMeaning: string;
}

function describeRuns(runs: Observations["runs"], definition: BandwidthDefinition): string {
  const matching = runs.filter((run) => bandwidthDefinitionOf(run) === definition);
  const sources = [...new Set(matching.map((run) => run.source ?? "(no source)"))];
  return `${matching.length} run${matching.length === 1 ? "" : "s"} ${definition} (${sources.slice(0, 3).join(", ")}${sources.length > 3 ? `, and ${sources.length - 3} more` : ""})`;
}

/**
 * The definition every run of the observations follows; refuses a mix.
 * @example fittedBandwidthDefinition(observations).bandwidthDefinition // "bytes-over-wall-time"
 */
export function fittedBandwidthDefinition(observations: Observations): FittedBandwidthDefinition {
  // Uniform and mixed sizes alike (the validation runs are judged by the same definition); a
  // run of one writer has both (Σ v_i/t_i = v/W), whatever its source says.
  const runs = observations.runs.filter((run) => run.m > 1);
  const definitions = [...new Set(runs.map(bandwidthDefinitionOf))];
  if (definitions.length > 1) {
    throw new InputError(
      `the runs carry both aggregated bandwidths — ${describeRuns(runs, "sum-of-writers")}; ${describeRuns(runs, "bytes-over-wall-time")} — ` +
        `and one model cannot mean both: they agree only when the writers are balanced, and the sum of the writers' bandwidths is the larger otherwise (docs/science.md §3.1.1). ` +
        `Neither converts into the other (IOR's and fio's group reports do not keep the writers' own times). Fit each set on its own (ckpt fit on the files of one definition; ` +
        `ckpt ingest --group-by bandwidth_definition shows their curves side by side)`,
    );
  }
  const bandwidthDefinition = definitions[0] ?? "sum-of-writers";
  return {
    bandwidthDefinition,
    bandwidthDefinitionMeaning: `${BANDWIDTH_DEFINITIONS[bandwidthDefinition]}; ${WHAT_THE_MODEL_PLANS[bandwidthDefinition]}`,
  };
}
