/**
 * The checkpoint device as an event-driven fluid simulation: what actually happens to the
 * checkpoints a strategy starts (docs/science.md §4.2–§4.3). The running checkpoints share the
 * aggregated bandwidth bw(m, V) of the *truth* model equally (V = the sum of their
 * remaining sizes, in GB: bandwidth/fair-shares.ts's sharing with no link binding); the rate is held between events and re-evaluated when a
 * checkpoint finishes or a new one starts — the progression of [Y-thesis] Algorithm 1
 * lines 10–17. By default the truth is the model the scheduler plans with; passing another
 * model shows what happens when the prediction is wrong (checkpoints finishing after the
 * deadline are then reported as misses by the callers).
 *
 * When the truth model has no usable bandwidth for the running set (≤ 0, or above its
 * fitted domain under the policy `refuse`) the device *stalls*: nothing running can ever
 * finish, and `advance` says so instead of dividing by it.
 *
 * Each `advance` is O(m); nothing is allocated unless steps are recorded.
 */
import { equalSharesIntervalS, isFinished } from "../bandwidth/fair-shares";
import type { BandwidthOracle } from "./bandwidth-oracle";

/** One interval of constant device state: the data of a bandwidth-over-time step plot. */
export interface BandwidthStep {
  /** Interval start and end, seconds. */
  fromS: number;
  toS: number;
  /** Checkpoints running during the interval. */
  m: number;
  /** Their remaining volume at the interval's start, GB. */
  vGb: number;
  /** Aggregated device bandwidth (truth model), MB/s. */
  bandwidthMbPerS: number;
  /** What each running checkpoint gets, MB/s. */
  perProcessMbPerS: number;
}

/** Where and why a device stalled. */
export interface DeviceStall {
  atS: number;
  m: number;
  vGb: number;
  reason: string;
}

export interface FluidDevice {
  readonly sizesMb: Float64Array;
  readonly remainingMb: Float64Array;
  /** Start time of each checkpoint, NaN if never started. */
  readonly startS: Float64Array;
  /** Finish time of each checkpoint, NaN if not (yet) finished. */
  readonly finishS: Float64Array;
  /** Indices of the running checkpoints in `[0, runningCount)`, in start order. */
  readonly running: Int32Array;
  runningCount: number;
  /** Current time, seconds. */
  timeS: number;
  /** Indices that finished at the last `advance`, in `[0, completedCount)`, ascending. */
  readonly completed: Int32Array;
  completedCount: number;
  stall: DeviceStall | null;
  /** Recorded intervals (empty unless recording). */
  readonly steps: BandwidthStep[];
  start(index: number): void;
  /**
   * Advance to the next completion(s). Returns how many finished (≥ 1), 0 when nothing
   * runs, −1 when the device stalls (then `stall` says why and time stays where it was).
   */
  advance(): number;
}

export function createFluidDevice(
  sizesMb: Float64Array,
  truth: BandwidthOracle,
  options: { startS?: number; recordSteps?: boolean } = {},
): FluidDevice {
  const n = sizesMb.length;
  const recordSteps = options.recordSteps ?? true;
  const device: FluidDevice = {
    sizesMb,
    remainingMb: new Float64Array(n),
    startS: new Float64Array(n).fill(NaN),
    finishS: new Float64Array(n).fill(NaN),
    running: new Int32Array(n),
    runningCount: 0,
    timeS: options.startS ?? 0,
    completed: new Int32Array(n),
    completedCount: 0,
    stall: null,
    steps: [],
    start(index: number): void {
      if (!Number.isNaN(device.startS[index]!)) throw new Error(`checkpoint ${index} was already started`);
      device.startS[index] = device.timeS;
      device.remainingMb[index] = sizesMb[index]!;
      device.running[device.runningCount++] = index;
    },
    advance(): number {
      const m = device.runningCount;
      device.completedCount = 0;
      if (m === 0) return 0;
      const running = device.running;
      const remaining = device.remainingMb;
      let volumeMb = 0;
      let smallestMb = Infinity;
      for (let k = 0; k < m; k++) {
        const r = remaining[running[k]!]!;
        volumeMb += r;
        if (r < smallestMb) smallestMb = r;
      }
      const vGb = volumeMb / 1000;
      const bw = truth.bandwidthMbPerS(m, vGb);
      if (!(bw > 0)) {
        device.stall = { atS: device.timeS, m, vGb, reason: stallReason(truth, m, vGb) };
        return -1;
      }
      // Each running checkpoint moves exactly the smallest remaining size in this interval.
      const durationS = equalSharesIntervalS(smallestMb, m, bw);
      const fromS = device.timeS;
      device.timeS = fromS + durationS;
      if (recordSteps) {
        device.steps.push({ fromS, toS: device.timeS, m, vGb, bandwidthMbPerS: bw, perProcessMbPerS: bw / m });
      }
      let kept = 0;
      for (let k = 0; k < m; k++) {
        const index = running[k]!;
        const left = remaining[index]! - smallestMb;
        if (isFinished(left, sizesMb[index]!)) {
          remaining[index] = 0;
          device.finishS[index] = device.timeS;
          device.completed[device.completedCount++] = index;
        } else {
          remaining[index] = left;
          running[kept++] = index;
        }
      }
      device.runningCount = kept;
      // Ascending, in place (one or two indices as a rule; a subarray view and its sort cost more).
      const completed = device.completed;
      for (let i = 1; i < device.completedCount; i++) {
        const index = completed[i]!;
        let j = i - 1;
        for (; j >= 0 && completed[j]! > index; j--) completed[j + 1] = completed[j]!;
        completed[j + 1] = index;
      }
      return device.completedCount;
    },
  };
  return device;
}

function stallReason(truth: BandwidthOracle, m: number, vGb: number): string {
  const d = truth.model.domain;
  const vText = vGb.toFixed(3);
  if (truth.policy === "refuse" && (m > d.mMax || vGb > d.vGbMax)) {
    return `the model "${truth.model.name}" has no prediction for ${m} concurrent checkpoints of ${vText} GB: outside its fitted domain (m ≤ ${d.mMax}, V ≤ ${d.vGbMax} GB), treated as infeasible under the domain policy refuse`;
  }
  return `the model "${truth.model.name}" gives no usable bandwidth (≤ 0) for ${m} concurrent checkpoints of ${vText} GB`;
}
