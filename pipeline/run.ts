/**
 * The pipeline: from raw checkpoint traces to the report, stages wired by named artifacts.
 *
 *   harness (`ckpt harness run`: a sweep on a real machine or cluster)
 *      │ traces: canonical CSV / host logs
 *      ▼
 *   traces (--traces, default the synthetic            the traces this project measured
 *           Azur-like campaign of data/traces/)          (data/traces/vm-…csv, nfs-…csv)
 *      │                                                     │
 *      ▼                                                     ▼
 *   ingest ──► observations (+ rejects.csv)              ingest-machine, ingest-nfs ──► <key>-observations
 *      │         runs, size series, peaks                    │
 *      ▼                                                     ▼
 *   fit ─────► model, fit                                 fit-machine, fit-nfs ──► <key>-model, <key>-fit
 *      │         bw(m, V), CIs, metrics, residuals           │
 *      ├────────────────┐                                    │
 *      ▼                ▼                                    │
 *   schedule         place                                   │
 *      │ schedule-     │ placements                          │
 *      │ example,      │ (+ place-timings, volatile)         │
 *      │ campaign (+ schedule-timings, volatile)             │
 *      └───────┬───────┘                                     │
 *              │      simulate-bkt ──► bkt-grid, simulate-das06 ──► das06-grid │
 *              │        (desktop-grid simulators, docs/science.md §6)   │
 *              │      investigations ──► investigations (kept grids, k0 counts; docs/investigations/)
 *              ▼              │                              │
 *              │      simulate-servers ──► server-comparison (with --traces: the   │
 *              │        simulators with the fitted server, Azur's, an ideal one, §6.6) │
 *              ▼              │                              │
 *   report ◄─────────────────┴─────────────────────────────┘
 *      └──► index.html, figures/ (SVG, PNG, PDF, Vega-Lite), tables/ (CSV, LaTeX), reproduction.json
 *
 *   (+ manifest.json: every output with its hash, inputs and parameters)
 *
 * Two reports come out of it. Without traces, the papers' reproduction (`npm run pipeline`):
 * every stage above on the shipped traces, the fit in the papers' form, ScheduleCkpt planning
 * with the published model. With traces (`--traces mine.csv --cluster NAME`), a report about
 * that cluster: ingest → fit (the form chosen by cross-validation) → schedule and place, both
 * with the fitted model → report; the project's sample traces, the desktop-grid simulators
 * and the reproduction are left out unless asked (`--with reproduction`: the simulators and
 * a campaign with the published model, `schedule-paper`, for the reproduction table).
 *
 * Each stage is a pure function from input artifacts and parameters to output artifacts
 * (pipeline/stages/), run by pipeline/runner/run-stages.ts (two at a time where they do not
 * depend on each other and a core is idle, runner/lanes.ts), which skips a stage whose
 * input hashes, parameters and code are unchanged and says why it ran or not; so editing
 * this machine's trace reruns ingest-machine, fit-machine and the report, and nothing
 * else. Artifacts live in `<out>/artifacts/<name>.json`. A stage plugs in by adding it to
 * STAGES in data-flow order; the report reads the artifacts it knows as optional inputs.
 */
import { dirname, extname, relative, resolve } from "node:path";
import { fitStage, measuredFitStages } from "./stages/fit-stage";
import { ingestStage, measuredIngestStages } from "./stages/ingest-stage";
import { placeStage } from "./stages/place-stage";
import { reportStage } from "./stages/report-stage";
import { paperScheduleStage, scheduleStage } from "./stages/schedule-stage";
import { simulateBktStage, simulateDas06Stage } from "./stages/simulation-grid-stage";
import { investigationGridsStage } from "./stages/investigation-grids-stage";
import { simulateServersStage } from "./stages/simulate-servers-stage";
import { runStages, type PipelineRun } from "./runner/run-stages";
import { withOutputFolder } from "./runner/output-folder";
import type { Stage } from "./runner/stage";
import { projectRoot } from "./shared/version";

/** The registered stages of the papers' reproduction, in data-flow order. */
export const STAGES: readonly Stage[] = [ingestStage, fitStage, ...measuredIngestStages.flatMap((ingest, i) => [ingest, measuredFitStages[i]!]), scheduleStage, placeStage, simulateBktStage, simulateDas06Stage, investigationGridsStage, reportStage];

/** Every stage either report can run, for listing parameters. */
export const ALL_STAGES: readonly Stage[] = [...STAGES.slice(0, -1), paperScheduleStage, simulateServersStage, STAGES[STAGES.length - 1]!];

/** "reproduction": the papers' reproduction on the shipped traces; "cluster": a report about the traces given. */
export type PipelineMode = "reproduction" | "cluster";

/**
 * The stages of a report, and the parameters its mode sets (the user's `--param` override
 * them): the reproduction fits the papers' form; a cluster's report fits the form chosen by
 * cross-validation (the fit stage's default) and plans with it.
 */
export function pipelinePlan(mode: PipelineMode, withReproduction: boolean): { stages: readonly Stage[]; parameters: Record<string, unknown> } {
  if (mode === "reproduction") return { stages: STAGES, parameters: { "fit.form": "paper" } };
  return {
    stages: [ingestStage, fitStage, scheduleStage, placeStage, ...(withReproduction ? [paperScheduleStage, simulateBktStage, simulateDas06Stage, investigationGridsStage] : []), simulateServersStage, reportStage],
    parameters: { "schedule.model": "fitted", "report.mode": "cluster", "report.withReproduction": withReproduction },
  };
}

/** Trace files used when none are given: the shipped synthetic Azur-like campaign (data/README.md). */
export const DEFAULT_TRACES: readonly string[] = ["data/traces/synthetic-azur.csv"];

export interface PipelineOptions {
  out: string;
  /** The cluster's traces; without them, the shipped sample traces and the papers' reproduction. */
  traces?: string[];
  /** Default: "cluster" when traces are given, else "reproduction". */
  mode?: PipelineMode;
  /** A cluster's report: also run and show the reproduction of the papers. */
  withReproduction?: boolean;
  force?: boolean;
  explain?: boolean;
  parameterOverrides?: Record<string, unknown>;
  /** Stage lanes: 1 = the main thread (default), N > 1 = N worker threads. */
  jobs?: number;
  log?: (line: string) => void;
}

/**
 * Stages side by side in `jobs` worker threads (runner/lanes.ts), or all on the main thread
 * (the default, and `--jobs 1`). Each worker loads and compiles its own copy of the modules
 * it runs, and stages in different threads share none of V8's compiled code: on two cores a
 * forced run took 3.3–3.7 s on two workers against 3.2–3.4 s on the main thread (4.4 s of
 * CPU against 3.9 s), so threads are something to try on a machine with cores to spare, not
 * a default. Only from the built code: from the TypeScript sources (tests) a worker could not
 * load the modules a stage imports when it runs (tsx's hooks do not reach a worker's import()).
 */
function stageWorkers(jobs: number | undefined): number {
  return extname(__filename) === ".js" && jobs !== undefined && jobs > 1 ? jobs : 0;
}

export function runPipeline(options: PipelineOptions): Promise<PipelineRun> {
  const root = projectRoot();
  const log = options.log ?? (() => {});
  const plan = pipelinePlan(options.mode ?? (options.traces !== undefined ? "cluster" : "reproduction"), options.withReproduction ?? false);
  const stages = plan.stages;
  // Built in a sibling folder under a lock and swapped in whole (runner/output-folder.ts).
  return withOutputFolder(options.out, (folder) => runStages(stages, {
    out: folder,
    displayOut: options.out,
    // Relative paths: they appear in the manifest, which must not depend on where the project is.
    traces: options.traces ?? DEFAULT_TRACES.map((t) => relative(process.cwd(), resolve(root, t))),
    force: options.force ?? false,
    explain: options.explain ?? false,
    parameterOverrides: { ...plan.parameters, ...(options.parameterOverrides ?? {}) },
    codeRoot: dirname(__filename),
    projectRoot: root,
    // The build folder is synced as a whole before it is swapped in (runner/output-folder.ts).
    deferSync: true,
    workers: stageWorkers(options.jobs),
    log,
  }), { log });
}
