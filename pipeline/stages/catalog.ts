/**
 * The catalog: every artifact the stages exchange, by name, with its type (kedro's
 * `DataCatalog`). A type is defined once, next to the code that produces it; the catalog only
 * names it, so that a stage reads its inputs typed (`readInputs`) instead of casting each
 * one, and a stage's declared inputs and outputs can be checked against the names here.
 *
 * Artifacts are JSON files (`<out>/artifacts/<name>.json`) written by the runner
 * (runner/run-stages.ts), which knows no type: the one cast from parsed JSON to an artifact's
 * type is `readInputs`, and it stands on the producer having written that type.
 */
import type { FitReportArtifact } from "../fit/fit-report-artifact";
import type { BandwidthModel } from "../fit/model";
import type { TurnDownFindings } from "../fit/turn-down-findings";
import type { ObservationsArtifact } from "../ingest/observations-artifact";
import type { ScenarioPlacement } from "../place/scenario-placement";
import type { ReportArtifact } from "../report/page/report-artifact";
import type { Investigations } from "../reproduce/investigations";
import type { ReproductionRow } from "../reproduce/reproduction";
import type { CampaignResult } from "../schedule/campaign";
import type { ScheduleExample } from "../schedule/schedule-example";
import type { PlansThatHold } from "../schedule/plans-that-hold";
import type { NotApplicable } from "../shared/not-applicable";
import type { ServerComparison } from "../simulate/server/compare-servers";
import type { MergedSweep } from "../simulate/sweep/merge-sweep";
import { MEASURED_CLUSTERS } from "./measured-clusters";

/** Measured durations, moved out of a result by shared/split-timings.ts (volatile: they differ from run to run). */
export interface ScheduleTimings {
  unit: "µs";
  example: Record<string, number>;
  campaign: Record<string, number>;
}

export interface PlaceTimings {
  unit: "µs";
  timings: Record<string, number>;
}

/** A campaign as the schedule stages write it: with the scenarios the model could not answer. */
export type CampaignArtifact = CampaignResult & { notApplicable: NotApplicable[] };

/** The clusters this project measured: each has its own observations, model and fit (measured-clusters.ts). */
export type MeasuredKey = "machine" | "nfs";
type MeasuredArtifacts = { [K in `${MeasuredKey}-observations`]: ObservationsArtifact } & { [K in `${MeasuredKey}-model`]: BandwidthModel } & {
  [K in `${MeasuredKey}-fit`]: FitReportArtifact;
};

/** Every artifact by name, with its type. */
export type ArtifactTypes = {
  /** stages/ingest-stage.ts: the traces read, validated and aggregated. */
  observations: ObservationsArtifact;
  /** stages/fit-stage.ts: bw(m, V), the model artifact. */
  model: BandwidthModel;
  /** stages/fit-stage.ts: the fit's coefficients, metrics and residuals. */
  fit: FitReportArtifact;
  /** stages/turn-down-stage.ts: the fitted curves' turn-downs the measurements do not show. */
  "turn-down": TurnDownFindings;
  /** stages/schedule-stage.ts: one ScheduleCkpt run in detail (null when the model could not price it). */
  "schedule-example": ScheduleExample | null;
  campaign: CampaignArtifact;
  "schedule-timings": ScheduleTimings;
  /** The same three of the `schedule-paper` stage (a cluster's report with the reproduction). */
  "paper-schedule-example": ScheduleExample | null;
  "paper-campaign": CampaignArtifact;
  "paper-schedule-timings": ScheduleTimings;
  /** stages/schedule-stage.ts: the example's mean and confident plans, the model's band and the replay (null without a predictive model). */
  "plans-that-hold": PlansThatHold | null;
  "paper-plans-that-hold": PlansThatHold | null;
  /** stages/place-stage.ts: the DP placer's scenarios. */
  placements: ScenarioPlacement[];
  "place-not-applicable": NotApplicable[];
  "place-timings": PlaceTimings;
  /** stages/simulation-grid-stage.ts: the desktop-grid simulators' grids, merged. */
  "bkt-grid": MergedSweep;
  "das06-grid": MergedSweep;
  /** stages/investigation-grids-stage.ts (reproduce/investigations.ts). */
  investigations: Investigations;
  /** stages/simulate-servers-stage.ts: both simulators with the fitted server, Azur's and an ideal one. */
  "server-comparison": ServerComparison;
  /** stages/reproduce-stage.ts: every published number against ours, with its verdict. */
  reproduction: ReproductionRow[];
  /** stages/report-stage.ts: what the report drew. */
  report: ReportArtifact;
} & MeasuredArtifacts;

export type ArtifactName = keyof ArtifactTypes;

export interface CatalogEntry<N extends ArtifactName = ArtifactName> {
  name: N;
  /** Measured durations, allowed to differ between two runs on the same inputs. */
  volatile: boolean;
}

const entry = <N extends ArtifactName>(name: N, volatile = false): CatalogEntry<N> => ({ name, volatile });

/** The catalog's entries (the names the stages declare); `ARTIFACTS.model.name` is "model". */
export const ARTIFACTS: { readonly [N in ArtifactName]: CatalogEntry<N> } = {
  observations: entry("observations"),
  model: entry("model"),
  fit: entry("fit"),
  "turn-down": entry("turn-down"),
  "schedule-example": entry("schedule-example"),
  campaign: entry("campaign"),
  "schedule-timings": entry("schedule-timings", true),
  "paper-schedule-example": entry("paper-schedule-example"),
  "paper-campaign": entry("paper-campaign"),
  "paper-schedule-timings": entry("paper-schedule-timings", true),
  "plans-that-hold": entry("plans-that-hold"),
  "paper-plans-that-hold": entry("paper-plans-that-hold"),
  placements: entry("placements"),
  "place-not-applicable": entry("place-not-applicable"),
  "place-timings": entry("place-timings", true),
  "bkt-grid": entry("bkt-grid"),
  "das06-grid": entry("das06-grid"),
  investigations: entry("investigations"),
  "server-comparison": entry("server-comparison"),
  reproduction: entry("reproduction"),
  report: entry("report"),
  "machine-observations": entry("machine-observations"),
  "machine-model": entry("machine-model"),
  "machine-fit": entry("machine-fit"),
  "nfs-observations": entry("nfs-observations"),
  "nfs-model": entry("nfs-model"),
  "nfs-fit": entry("nfs-fit"),
};

/** Whether a name (without its optional mark "?") is one of the catalog's. */
export function isArtifactName(name: string): name is ArtifactName {
  return Object.hasOwn(ARTIFACTS, name);
}

/** `<key>-observations`, `<key>-model`, `<key>-fit` of a measured cluster, as catalog names. */
export function measuredArtifactNames(key: string): MeasuredNames {
  const names = { observations: `${key}-observations`, model: `${key}-model`, fit: `${key}-fit` };
  for (const name of Object.values(names)) if (!isArtifactName(name)) throw new Error(`measured cluster "${key}": the catalog (stages/catalog.ts) has no artifact "${name}"; add it there`);
  return names as MeasuredNames;
}

export interface MeasuredNames {
  observations: `${MeasuredKey}-observations`;
  model: `${MeasuredKey}-model`;
  fit: `${MeasuredKey}-fit`;
}

// Every measured cluster's artifacts are in the catalog (checked when the stage list loads).
for (const cluster of MEASURED_CLUSTERS) measuredArtifactNames(cluster.key);

/**
 * A stage's inputs by name, typed by the catalog: those absent (an optional input whose
 * stage did not run) are undefined. The runner parsed them from the files their producers
 * wrote.
 */
export function readInputs<N extends ArtifactName>(inputs: Record<string, unknown>, names: readonly N[]): { [K in N]?: ArtifactTypes[K] } {
  const out: { [K in N]?: ArtifactTypes[K] } = {};
  for (const name of names) if (inputs[name] !== undefined) out[name] = inputs[name] as ArtifactTypes[N];
  return out;
}

/** A stage's required inputs, typed by the catalog; the runner runs a stage only when they exist, so one missing is a wiring error. */
export function readRequired<N extends ArtifactName>(inputs: Record<string, unknown>, names: readonly N[]): { [K in N]: ArtifactTypes[K] } {
  const out = readInputs(inputs, names);
  for (const name of names) if (out[name] === undefined) throw new Error(`required input artifact "${name}" is missing: no stage before this one made it`);
  return out as { [K in N]: ArtifactTypes[K] };
}
