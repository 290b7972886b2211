/**
 * ScheduleCkpt ([Y11] §5, [Y-thesis] Algorithm 1; docs/science.md §4.3): decide, at the release
 * notice and at every completion after it, which applications to start checkpointing so
 * that as much unsaved computation (CTNYS) as possible is saved before the deadline T.
 *
 *     t ← 0; CKPT ← ∅; E' ← all applications in criterion order
 *     repeat
 *       I ← index_bw_max(E')                      // index-bw-max.ts
 *       δ ← ks_bw(I, E', S', CKPT, T − t, k0)      // ks-bw.ts
 *       if δ ≠ ∅ or CKPT ≠ ∅:
 *         start δ; advance to the next completion(s) K (fluid progression)
 *         s'_j ← s'_j − transferred for j in CKPT; CKPT ← CKPT − K; t ← that time
 *     until δ = ∅ and CKPT = ∅
 *
 * The progression between decisions is the fluid device (`fluid-device.ts`) driven by the
 * truth model (the planning model unless another is given): decisions are taken at the
 * completions that actually happen, with the remaining sizes actually left, so a wrong
 * model shows up as checkpoints finishing after T (counted as misses, never assumed away).
 *
 * Decisions:
 * - Running checkpoints are never interrupted, even when a wrong prediction means they can
 *   no longer make T; they are then missed.
 * - An application rejected once stays in E' and is reconsidered at every later decision
 *   (the sources remove only completed ones); it still takes its place in
 *   index_bw_max's bandwidth walk, exactly as Algorithm 2 reads.
 * - Completions closer than a relative 1e-10 of an image size count as simultaneous (one
 *   decision for the set K).
 * - `schedulerMicros` is the time of the algorithm's loop: the initial sort, then per
 *   decision building CKPT's remaining sizes, index_bw_max, ks_bw, the bookkeeping of E' and
 *   the fluid progression to the next completion (Algorithm 1's lines 10–17 are part of the
 *   loop) — not input parsing or validation, not the model lookup, not recording decisions,
 *   not building the output. It is read from the clock at the loop's two ends only: a clock
 *   reading costs ~40 ns, two per decision would be a tenth of the time measured. Without
 *   `record`, the loop allocates nothing (its buffers, the sort's included, are made before
 *   the clock starts, as the C reference's are): an allocation inside could start a garbage
 *   collection of earlier runs' buffers and charge it to this one.
 *
 * Cold start: a single CLI call runs this code once, before V8 has compiled it. The hot
 * functions (this one, index_bw_max, ks_bw, the estimators, the size set, the bandwidth
 * oracle) are written as parenthesised function expressions, which V8 compiles when their
 * module loads instead of lazily on first call; otherwise the first decision alone would
 * charge ~0.25 ms of bytecode compilation to `schedulerMicros`. The algorithm is the same.
 *
 * Complexity: at most 2n + 1 decisions (each starts or completes at least one checkpoint);
 * each O(r^(k0+1)) estimates (ks_bw) + O(r) evaluations (index_bw_max), r the candidates.
 */
import { InputError } from "../shared/errors";
import { applicationColumns, type Application } from "./application";
import { createBandwidthOracle, type BandwidthEvaluationCounts } from "./bandwidth-oracle";
import { createOrderWorkspace, criterionOrder } from "./criterion-order";
import { createFluidDevice } from "./fluid-device";
import { indexBwMax } from "./index-bw-max";
import { createKsBwWorkspace, ksBw, ksBwWorkBound } from "./ks-bw";
import type { ScheduleOptions } from "./schedule-options";
import { clearSizeSet, createSizeSet, insertSize } from "./size-set";
import { outcomeFromDevice, type StrategyOutcome } from "./strategy-outcome";
import { estimatorByName } from "./time-estimator";

/** One decision of the loop, for reports (recorded when `options.record`). */
export interface ScheduleDecision {
  iteration: number;
  atS: number;
  /** T − t at the decision, s. */
  budgetS: number;
  /** Ids of the checkpoints in progress (CKPT). */
  running: string[];
  /** Ids of I − CKPT, in criterion order. */
  candidates: string[];
  /** Ids started by this decision (δ), in criterion order. */
  started: string[];
  /** ks_bw's value (Σ p of δ), or null when no subset met the constraint. */
  value: number | null;
  /** Time this decision took (not the progression after it), µs. */
  micros: number;
  /** The wave (docs/science.md §4.6) the decision belongs to, when scheduling by waves. */
  wave?: number;
}

export interface ScheduleCkptOutcome extends StrategyOutcome {
  strategy: "schedule-ckpt";
  /** Time the loop ended (its last completion, or its start when nothing ran), s. */
  endS: number;
  /** Decisions taken (passes through the repeat loop, the last one included). */
  iterations: number;
  /** Time spent in the decision code, µs (see the module docblock for what it includes). */
  schedulerMicros: number;
  /** Bandwidth evaluations made by the decisions (planning model). */
  evaluations: BandwidthEvaluationCounts;
  decisions: ScheduleDecision[];
}

/**
 * Run ScheduleCkpt on `apps` (already validated). `startS` shifts the clock (the waves
 * of docs/science.md §4.6 start where the previous wave ended); the deadline stays absolute.
 */
export const scheduleCkpt = (function scheduleCkpt(apps: readonly Application[], options: ScheduleOptions, startS = 0): ScheduleCkptOutcome {
  const n = apps.length;
  const { sizesMb, pS } = applicationColumns(apps);
  const plan = createBandwidthOracle(options.model, options.domain, options.planBandwidth);
  const truth = createBandwidthOracle(options.truthModel, options.domain, options.truthBandwidth);
  const estimator = estimatorByName(options.estimator);
  const ksOptions = { k0: options.k0, enumeration: options.enumeration, prune: options.prune };
  const device = createFluidDevice(sizesMb, truth, { startS, recordSteps: options.record });
  const workspace = createKsBwWorkspace(n);
  const running = createSizeSet(n);
  const toStart = new Int32Array(n);
  const candidates = new Int32Array(n);
  const order = createOrderWorkspace(n);
  const deadlineS = options.deadlineS;
  const decisions: ScheduleDecision[] = [];
  const ids = (indices: ArrayLike<number>, count: number) => Array.from({ length: count }, (_, k) => apps[indices[k]!]!.id);

  const started = performance.now();
  let recordingMs = 0;
  const waiting = criterionOrder(pS, sizesMb, options.criterion, order);
  let head = 0;
  let iterations = 0;

  for (;;) {
    iterations++;
    const decisionStart = options.record ? performance.now() : 0;
    clearSizeSet(running);
    for (let k = 0; k < device.runningCount; k++) insertSize(running, device.remainingMb[device.running[k]!]!);
    const budgetS = deadlineS - device.timeS;
    const r = indexBwMax(waiting, head, n, sizesMb, running.count, running.sumMb, plan, options.idleStart);
    const work = ksBwWorkBound(r, options.k0, options.enumeration);
    if (work > options.maxEstimatesPerDecision) {
      throw new InputError(
        `ks_bw would make up to ${work.toExponential(1)} time estimates in one decision (k0 = ${options.k0} over ${r} candidates), ` +
          `about ${(work / 1e8).toPrecision(2)} s each time at 10^8 estimates/s: lower --k0 (the papers use 0 to 2), or raise --max-estimates (now ${options.maxEstimatesPerDecision.toExponential(0)})`,
      );
    }
    const value = ksBw(waiting, head, r, sizesMb, pS, running, budgetS, ksOptions, estimator, plan, workspace);
    // δ leaves E' (it will be running, then completed); the others keep their order.
    const selected = workspace.selected;
    const startCount = workspace.selectedCount;
    for (let k = 0; k < startCount; k++) toStart[k] = waiting[head + selected[k]!]!;
    if (options.record) for (let k = 0; k < r; k++) candidates[k] = waiting[head + k]!;
    let write = head + r - 1;
    let next = startCount - 1;
    for (let position = r - 1; position >= 0; position--) {
      if (next >= 0 && selected[next] === position) next--;
      else waiting[write--] = waiting[head + position]!;
    }
    head = write + 1;

    if (options.record) {
      const recordStart = performance.now();
      decisions.push({
        iteration: iterations,
        atS: device.timeS,
        budgetS,
        running: ids(device.running, device.runningCount),
        candidates: ids(candidates, r),
        started: ids(toStart, startCount),
        value: Number.isFinite(value) ? value : null,
        micros: (recordStart - decisionStart) * 1000,
      });
      recordingMs += performance.now() - recordStart;
    }
    for (let k = 0; k < startCount; k++) device.start(toStart[k]!);
    if (startCount === 0 && device.runningCount === 0) break;
    if (device.advance() < 0) break; // stalled: nothing running can finish
  }
  const schedulerMs = performance.now() - started - recordingMs;

  return {
    ...outcomeFromDevice("schedule-ckpt", apps, device, deadlineS, truth),
    strategy: "schedule-ckpt",
    endS: device.timeS,
    iterations,
    schedulerMicros: schedulerMs * 1000,
    evaluations: plan.counts(),
    decisions,
  };
});
