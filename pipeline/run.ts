/**
 * The pipeline: from raw checkpoint traces to the report, stages wired by named artifacts
 * (each with its type in stages/catalog.ts). The flow, then every arrow: a stage, the
 * artifacts it writes, and the stages that read each (test/pipeline/stage-table.test.ts
 * checks that this map names every stage and artifact, and that every input is written
 * by a stage before it).
 *
 *   harness (`ckpt harness run`; not a stage: a sweep on a machine or cluster writes the traces)
 *      │ canonical CSV / host logs
 *      ▼
 *   ingest ──► fit ──► turn-down, schedule, place, simulate-servers
 *   ingest-<key> ──► fit-<key>                     (the traces this project measured)
 *   simulate-bkt, simulate-das06, investigations   (the desktop-grid simulators' grids)
 *   schedule, schedule-paper, place, simulate-bkt, simulate-das06, investigations ──► reproduce
 *   every stage but investigations ──► report ──► reports/
 *
 *   stage                        writes                       read by
 *   ingest (--traces, default    observations, rejects.csv    fit, turn-down, schedule (schedule.model=fitted), report
 *     data/traces/synthetic-azur.csv)
 *   ingest-machine, ingest-nfs   <key>-observations           fit-<key>, report
 *     (data/traces/vm-…csv, nfs-…csv: this project's)
 *   fit                          model                        schedule (schedule.model=fitted), place, simulate-servers
 *                                fit                          turn-down, report
 *   fit-machine, fit-nfs         <key>-fit                    report
 *                                <key>-model                  (no stage: the cluster's model artifact, for `ckpt` commands)
 *   turn-down                    turn-down                    report
 *   schedule                     schedule-example             report
 *                                campaign                     reproduce, report
 *                                schedule-timings (volatile)  report
 *                                plans-that-hold              report (null under the published model)
 *   schedule-paper               paper-campaign               reproduce, report
 *     (a cluster's report        paper-schedule-example,      (no stage: the run in detail, as `schedule` writes it)
 *     --with reproduction)       paper-schedule-timings,
 *                                paper-plans-that-hold (null)
 *   place                        placements                   reproduce, report
 *                                place-not-applicable         report
 *                                place-timings (volatile)     (no stage: the solver's measured times)
 *   simulate-bkt                 bkt-grid                     reproduce, report
 *   simulate-das06               das06-grid                   reproduce, report
 *   investigations               investigations               reproduce
 *   simulate-servers             server-comparison            report
 *     (a cluster's report)
 *   reproduce (+ data/published/) reproduction                report
 *   report                       report, index.html, reproduction.html, figures/ (SVG, PNG, PDF,
 *                                Vega-Lite), tables/ (CSV, LaTeX), paper/, reproduction.json
 *
 *   (+ manifest.json: every output with its hash, inputs and parameters)
 *
 * Who computes and who draws: every number the report prints is in an artifact; the
 * reproduce stage makes the reproduction rows (pipeline/reproduce/), and the report
 * (pipeline/report/) only turns artifacts into pages, figures and tables.
 *
 * Two reports come out of it (STAGE_TABLE says which stage belongs to which). Without
 * traces, the papers' reproduction (`npm run pipeline`): the stages above on the shipped
 * traces, the fit in the papers' form, ScheduleCkpt planning with the published model. With
 * traces (`--traces mine.csv --cluster NAME`), a report about that cluster: ingest → fit (the
 * form chosen by cross-validation) → schedule and place, both with the fitted model →
 * simulate-servers → report; the project's sample traces, the desktop-grid simulators and the
 * reproduction are left out unless asked (`--with reproduction`: the simulators, the
 * investigations, `schedule-paper` and reproduce).
 *
 * Each stage is a pure function from input artifacts and parameters to output artifacts
 * (pipeline/stages/), run by pipeline/runner/run-stages.ts (two at a time where they do not
 * depend on each other and a core is idle, runner/lanes.ts), which skips a stage whose
 * input hashes, parameters and code are unchanged and says why it ran or not; so editing
 * this machine's trace reruns ingest-machine, fit-machine and the report, and nothing
 * else. Artifacts live in `<out>/artifacts/<name>.json`. A stage plugs in by a row of
 * STAGE_TABLE, in data-flow order, and its artifacts in the catalog; the report reads the
 * artifacts it knows as optional inputs.
 */
import { dirname, extname, relative, resolve } from "node:path";
import { fitStage, measuredFitStages } from "./stages/fit-stage";
import { ingestStage, measuredIngestStages } from "./stages/ingest-stage";
import { placeStage } from "./stages/place-stage";
import { reportStage } from "./stages/report-stage";
import { reproduceStage } from "./stages/reproduce-stage";
import { turnDownStage } from "./stages/turn-down-stage";
import { paperScheduleStage, scheduleStage } from "./stages/schedule-stage";
import { simulateBktStage, simulateDas06Stage } from "./stages/simulation-grid-stage";
import { investigationGridsStage } from "./stages/investigation-grids-stage";
import { simulateServersStage } from "./stages/simulate-servers-stage";
import { runStages, type PipelineRun } from "./runner/run-stages";
import { withOutputFolder } from "./runner/output-folder";
import type { Stage } from "./runner/stage";
import { projectRoot } from "./shared/version";

/** A stage and the reports it runs in. */
export interface StageRow {
  stage: Stage;
  /** In the papers' reproduction (no traces given). */
  reproduction: boolean;
  /** In a cluster's report: always, only `--with reproduction`, or never (the project's own traces). */
  cluster: "always" | "with reproduction" | "never";
}

/** Every stage, once, in data-flow order, with the reports it belongs to. */
export const STAGE_TABLE: readonly StageRow[] = [
  { stage: ingestStage, reproduction: true, cluster: "always" },
  { stage: fitStage, reproduction: true, cluster: "always" },
  { stage: turnDownStage, reproduction: true, cluster: "always" },
  ...measuredIngestStages.flatMap((ingest, i): StageRow[] => [
    { stage: ingest, reproduction: true, cluster: "never" },
    { stage: measuredFitStages[i]!, reproduction: true, cluster: "never" },
  ]),
  { stage: scheduleStage, reproduction: true, cluster: "always" },
  { stage: placeStage, reproduction: true, cluster: "always" },
  { stage: paperScheduleStage, reproduction: false, cluster: "with reproduction" },
  { stage: simulateBktStage, reproduction: true, cluster: "with reproduction" },
  { stage: simulateDas06Stage, reproduction: true, cluster: "with reproduction" },
  { stage: investigationGridsStage, reproduction: true, cluster: "with reproduction" },
  { stage: simulateServersStage, reproduction: false, cluster: "always" },
  { stage: reproduceStage, reproduction: true, cluster: "with reproduction" },
  { stage: reportStage, reproduction: true, cluster: "always" },
];

/** The registered stages of the papers' reproduction, in data-flow order. */
export const STAGES: readonly Stage[] = STAGE_TABLE.filter((row) => row.reproduction).map((row) => row.stage);

/** Every stage either report can run, for listing parameters. */
export const ALL_STAGES: readonly Stage[] = STAGE_TABLE.map((row) => row.stage);

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
    stages: STAGE_TABLE.filter((row) => row.cluster === "always" || (withReproduction && row.cluster === "with reproduction")).map((row) => row.stage),
    parameters: { "schedule.model": "fitted", "report.mode": "cluster", "report.withReproduction": withReproduction },
  };
}

/**
 * The stages that make `artifact`, and those they read from, in data-flow order (an
 * optional input counts when a listed stage makes it): what `npm run docs` runs for the
 * reproduction table without drawing the report.
 */
export function stagesUpTo(stages: readonly Stage[], artifact: string): Stage[] {
  const producer = new Map(stages.flatMap((stage) => stage.outputs.map((name) => [name, stage] as const)));
  const needed = new Set<Stage>();
  const visit = (name: string) => {
    const stage = producer.get(name.replace(/\?$/, ""));
    if (stage === undefined || needed.has(stage)) return;
    needed.add(stage);
    for (const input of stage.inputs) visit(input);
  };
  if (!producer.has(artifact)) throw new Error(`no stage makes the artifact "${artifact}"; the stages make ${[...producer.keys()].join(", ")}`);
  visit(artifact);
  return stages.filter((stage) => needed.has(stage));
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
