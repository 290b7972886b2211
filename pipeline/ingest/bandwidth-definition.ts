/**
 * Which aggregated bandwidth a run carries (docs/science.md §3.1.1). The papers add the
 * writers' own bandwidths, Σ v_i / t_i; IOR, and fio's group report, divide the bytes of
 * all writers by the time from the first start to the last end, Σ v_i / (max end − min
 * start). They agree when the writers start together and take the same time; otherwise the
 * papers' sum is the larger one (each t_i is at most the wall time), and for equal sizes V /
 * Σ-bandwidth is the harmonic mean of the writers' durations where V / wall-time bandwidth
 * is the whole checkpoint's duration.
 *
 * A run says which one in its attribute `bandwidth_definition`; a run without it (canonical
 * CSV, host logs: the papers' traces, one row per process) carries the papers' sum, which
 * ingest computes from its rows. Kept as an attribute rather than a column so that it is
 * in the observations artifact and `--group-by bandwidth_definition` keeps the two apart.
 */
import type { RunObservation } from "./observations";

export const BANDWIDTH_DEFINITION_ATTRIBUTE = "bandwidth_definition";

export const BANDWIDTH_DEFINITIONS = {
  /** Σ over the writers of their own bytes / their own time: the papers' aggregate. */
  "sum-of-writers": "the sum of the writers' own bandwidths (the papers' definition)",
  /** Σ bytes / (last end − first start): IOR's and fio's group-reported aggregate. */
  "bytes-over-wall-time": "all writers' bytes over the wall time from the first start to the last end (IOR's and fio's group report)",
} as const;

export type BandwidthDefinition = keyof typeof BANDWIDTH_DEFINITIONS;

/** The definition a run's aggregated bandwidth follows (the papers' sum when the run does not say). */
export function bandwidthDefinitionOf(run: Pick<RunObservation, "attributes">): BandwidthDefinition {
  const value = run.attributes?.[BANDWIDTH_DEFINITION_ATTRIBUTE];
  return value === "bytes-over-wall-time" ? value : "sum-of-writers";
}

/** How many runs follow each definition (for the ingest summary and a warning on mixing). */
export function countBandwidthDefinitions(runs: Iterable<Pick<RunObservation, "attributes">>): Partial<Record<BandwidthDefinition, number>> {
  const counts: Partial<Record<BandwidthDefinition, number>> = {};
  for (const run of runs) {
    const definition = bandwidthDefinitionOf(run);
    counts[definition] = (counts[definition] ?? 0) + 1;
  }
  return counts;
}
