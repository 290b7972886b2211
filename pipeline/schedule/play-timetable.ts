/**
 * A plan played as a timetable: the checkpoints a plan started, each started at its planned
 * time, on a device whose bandwidth is another one's (a quantile of the predictive
 * distribution, a replayed run) — what the release hook does (release-executor.ts signals
 * each chosen job at its planned start). Open loop on purpose: a plan's miss probability
 * is about the plan, not about a scheduler that would re-decide on the completions it sees
 * (that is `--truth`'s execution, where a faster device can make ScheduleCkpt start more
 * and then miss).
 *
 * The device is the fluid one of docs/science.md §4.2: the running checkpoints share
 * bw(m, V) equally, V their remaining volume; the rate is held between events (a start or
 * a completion). A state with no usable bandwidth stalls the device: what runs then never
 * finishes. O(events · m).
 */
import type { BandwidthOracle } from "./bandwidth-oracle";
import { meetsDeadline } from "./strategy-outcome";

export interface TimetableOutcome {
  /** Finish time of each checkpoint, s; NaN when not started or never finished (stall). */
  finishS: Float64Array;
  /** Indices started but not finished by the deadline. */
  missed: number[];
  /** Σ p of the checkpoints that finished by the deadline, s. */
  ctnysS: number;
}

const FINISHED_FRACTION = 1e-10;

/** `startS[i]`: when checkpoint i starts (NaN: never). */
export function playTimetable(
  sizesMb: ArrayLike<number>,
  pS: ArrayLike<number>,
  startS: ArrayLike<number>,
  truth: BandwidthOracle,
  deadlineS: number,
): TimetableOutcome {
  const n = sizesMb.length;
  const order = Array.from({ length: n }, (_, i) => i)
    .filter((i) => !Number.isNaN(startS[i]!))
    .sort((a, b) => startS[a]! - startS[b]! || a - b);
  const remaining = new Float64Array(n);
  const finishS = new Float64Array(n).fill(NaN);
  const running: number[] = [];
  let next = 0;
  let timeS = order.length > 0 ? startS[order[0]!]! : 0;
  let stalled = false;
  while (!stalled && (next < order.length || running.length > 0)) {
    while (next < order.length && startS[order[next]!]! <= timeS) {
      const index = order[next++]!;
      remaining[index] = sizesMb[index]!;
      running.push(index);
    }
    const nextStartS = next < order.length ? startS[order[next]!]! : Infinity;
    if (running.length === 0) {
      timeS = nextStartS;
      continue;
    }
    const m = running.length;
    let volumeMb = 0;
    let smallestMb = Infinity;
    for (const index of running) {
      volumeMb += remaining[index]!;
      smallestMb = Math.min(smallestMb, remaining[index]!);
    }
    const bw = truth.bandwidthMbPerS(m, volumeMb / 1000);
    if (!(bw > 0)) {
      stalled = true;
      break;
    }
    const toCompletionS = (smallestMb * m) / bw;
    const stepS = Math.min(toCompletionS, nextStartS - timeS);
    const movedMb = (bw / m) * stepS;
    timeS += stepS;
    for (let k = running.length - 1; k >= 0; k--) {
      const index = running[k]!;
      const left = stepS === toCompletionS && remaining[index] === smallestMb ? 0 : remaining[index]! - movedMb;
      if (left <= FINISHED_FRACTION * sizesMb[index]!) {
        remaining[index] = 0;
        finishS[index] = timeS;
        running.splice(k, 1);
      } else {
        remaining[index] = left;
      }
    }
  }
  const missed: number[] = [];
  let ctnysS = 0;
  for (const index of order) {
    if (!Number.isNaN(finishS[index]!) && meetsDeadline(finishS[index]!, deadlineS)) ctnysS += pS[index]!;
    else missed.push(index);
  }
  missed.sort((a, b) => a - b);
  return { finishS, missed, ctnysS };
}
