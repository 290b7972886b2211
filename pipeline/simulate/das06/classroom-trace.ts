/**
 * `das06-like`: a SYNTHETIC availability trace of classroom PCs matched to the published
 * statistics of [DAS06]'s trace (docs/science.md §6.2.1–6.2.2). It is not the paper's data,
 * which was never published; every output made from it says so.
 *
 * - `machines` PCs in two classrooms, `days` days sampled every 120 s; day 0 is a Monday
 *   00:00 (epoch origin 2005-10-03T00:00:00, local time stored as if UTC).
 * - Closed periods, during which no machine changes state: Saturday 21:00 → Monday 08:00,
 *   and 04:00–08:00 on Tuesday to Saturday mornings (`closeSaturdayMorning`, the project's
 *   reading of "weekdays").
 * - Open periods: each machine alternates ON and OFF with exponential sojourns counted in
 *   open time (frozen while closed), mean ON `meanOnHours` (8) and mean OFF calibrated by
 *   bisection until the mean number of ON machines over all sample instants is
 *   `targetMeanOn` (17.42 of 32 = 54.44 %, the same fraction by default for other sizes) ± 0.05. Each machine's uniforms are drawn once
 *   (common random numbers), so the calibration is deterministic and monotone. State
 *   changes are snapped to the 120 s sample grid. Initial state ON with probability
 *   targetMeanOn / machines.
 * - Reboots (`rebootsPerOnHour`, default 0): a Poisson process of that rate over each machine's
 *   open ON time (its own stream, drawn once like the sojourns); a reboot makes the machine
 *   unavailable for one sample period (docs/science.md §6.2.2, D16), which kills a running
 *   task. The bisection calibrates the mean with the reboots in.
 *
 * Cost: O(machines × changes) per evaluation, ~40 bisection steps.
 */
import { createRandomStreams } from "../engine/random-streams";
import { lastIndexAtOrBelow } from "../../shared/sorted-search";

export interface ClassroomOptions {
  machines: number;
  days: number;
  seed: number;
  meanOnHours?: number;
  targetMeanOn?: number;
  closeSaturdayMorning?: boolean;
  rebootsPerOnHour?: number;
}

export const CLASSROOM_DEFAULTS = { machines: 32, days: 39, meanOnHours: 8, closeSaturdayMorning: true, rebootsPerOnHour: 0 } as const;
/** [DAS06] §3.1: 17.42 of the 32 machines on, on average; other sizes keep the fraction. */
const MEAN_ON_FRACTION = 17.42 / 32;

/** 2005-10-03T00:00:00, a Monday, as epoch seconds read as UTC (docs/science.md §6.2.2). */
export const CLASSROOM_EPOCH_S = Date.UTC(2005, 9, 3) / 1000;
export const SAMPLE_S = 120;
const HOUR = 3600;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;

export interface ClassroomTrace {
  /** Per machine: ON intervals [start, end), seconds from day 0. */
  machines: { starts: number[]; ends: number[] }[];
  spanS: number;
  meanOffHours: number;
  achievedMeanOn: number;
  options: Required<ClassroomOptions>;
}

/** Whether t (seconds from a Monday 00:00) falls in a closed period. */
export function isClosed(t: number, closeSaturdayMorning = true): boolean {
  const inWeek = ((t % WEEK) + WEEK) % WEEK;
  const day = Math.floor(inWeek / DAY); // 0 Monday … 6 Sunday
  const hour = (inWeek - day * DAY) / HOUR;
  if (day === 6) return true; // Sunday
  if (day === 5 && hour >= 21) return true; // Saturday night
  if (day === 0 && hour < 8) return true; // Monday before 08:00
  if (day >= 1 && day <= (closeSaturdayMorning ? 5 : 4) && hour >= 4 && hour < 8) return true;
  return false;
}

/** The open hours of a span, as [start, end) seconds (closed hours are whole hours). */
function openPeriods(spanS: number, closeSaturdayMorning: boolean): [number, number][] {
  const periods: [number, number][] = [];
  for (let h = 0; h * HOUR < spanS; h++) {
    if (isClosed(h * HOUR, closeSaturdayMorning)) continue;
    const last = periods[periods.length - 1];
    if (last !== undefined && last[1] === h * HOUR) last[1] = (h + 1) * HOUR;
    else periods.push([h * HOUR, (h + 1) * HOUR]);
  }
  return periods;
}

/** Wall time of open-time position x (seconds of open time from 0). */
function wallTime(periods: [number, number][], prefix: number[], x: number): number {
  const at = lastIndexAtOrBelow(prefix, x);
  return periods[at]![0] + (x - prefix[at]!);
}

export function generateClassroomTrace(options: ClassroomOptions): ClassroomTrace {
  const o: Required<ClassroomOptions> = { ...CLASSROOM_DEFAULTS, targetMeanOn: MEAN_ON_FRACTION * (options.machines ?? CLASSROOM_DEFAULTS.machines), ...options };
  if (!Number.isInteger(o.machines) || o.machines < 1) throw new RangeError(`machines must be an integer ≥ 1, got ${o.machines}`);
  if (!(o.days > 0)) throw new RangeError(`days must be > 0, got ${o.days}`);
  if (!(o.targetMeanOn > 0 && o.targetMeanOn < o.machines)) throw new RangeError(`the target mean number of ON machines must be in (0, ${o.machines}), got ${o.targetMeanOn}`);
  if (!(o.meanOnHours > 0)) throw new RangeError(`meanOnHours must be > 0, got ${o.meanOnHours}`);
  if (!(o.rebootsPerOnHour >= 0 && Number.isFinite(o.rebootsPerOnHour))) throw new RangeError(`rebootsPerOnHour must be a finite number ≥ 0, got ${o.rebootsPerOnHour}`);
  const spanS = Math.round(o.days * DAY);
  const periods = openPeriods(spanS, o.closeSaturdayMorning);
  const prefix: number[] = [];
  let openTotal = 0;
  for (const [a, b] of periods) {
    prefix.push(openTotal);
    openTotal += b - a;
  }
  // Common random numbers: each machine's initial state and its sojourn uniforms, drawn once.
  const streams = createRandomStreams(o.seed);
  const uniforms = Array.from({ length: o.machines }, (_, m) => {
    const random = streams.stream("classroom", m);
    const initialOn = random.next() < o.targetMeanOn / o.machines;
    // Enough sojourns for the span even with short means (grown on demand below).
    return { initialOn, draws: [] as number[], random };
  });
  const draw = (m: number, i: number) => {
    const u = uniforms[m]!;
    while (u.draws.length <= i) u.draws.push(u.random.next());
    return u.draws[i]!;
  };
  // Reboot instants in open time, per machine (a Poisson process of the reboot rate over all open time; those that fall while ON are reboots).
  const rebootsAt = uniforms.map((_, m) => {
    const at: number[] = [];
    if (o.rebootsPerOnHour === 0) return at;
    const random = streams.stream("reboots", m);
    for (let x = -Math.log(1 - random.next()) * (HOUR / o.rebootsPerOnHour); x < openTotal; x += -Math.log(1 - random.next()) * (HOUR / o.rebootsPerOnHour)) at.push(x);
    return at;
  });
  /**
   * The ON interval [since, end) (wall time; open time fromX to toX) split at its machine's
   * reboots, each taking one sample period.
   */
  const withReboots = (m: number, since: number, end: number, fromX: number, toX: number, starts: number[], ends: number[]) => {
    for (const x of rebootsAt[m]!) {
      if (x <= fromX || x >= toX) continue;
      const down = Math.min(end, Math.round(wallTime(periods, prefix, x) / SAMPLE_S) * SAMPLE_S);
      if (down > since) {
        starts.push(since);
        ends.push(down);
      }
      since = Math.max(since, Math.min(end, down + SAMPLE_S));
    }
    if (end > since) {
      starts.push(since);
      ends.push(end);
    }
  };

  const build = (meanOffHours: number) =>
    uniforms.map((u, m) => {
      const starts: number[] = [];
      const ends: number[] = [];
      let on = u.initialOn;
      let x = 0;
      let since = 0;
      for (let i = 0; x < openTotal; i++) {
        const mean = (on ? o.meanOnHours : meanOffHours) * HOUR;
        const fromX = x;
        x += -mean * Math.log(1 - draw(m, i));
        const at = x >= openTotal ? spanS : Math.min(spanS, Math.round(wallTime(periods, prefix, x) / SAMPLE_S) * SAMPLE_S);
        if (on && at > since) {
          if (rebootsAt[m]!.length === 0) {
            starts.push(since);
            ends.push(at);
          } else withReboots(m, since, at, fromX, x, starts, ends);
        }
        since = at;
        on = !on;
      }
      return { starts, ends };
    });

  const meanOn = (machines: { starts: number[]; ends: number[] }[]) => {
    const samples = Math.floor(spanS / SAMPLE_S);
    let total = 0;
    for (const { starts, ends } of machines) {
      for (let i = 0; i < starts.length; i++) total += Math.ceil(ends[i]! / SAMPLE_S) - Math.ceil(starts[i]! / SAMPLE_S);
    }
    return total / samples;
  };

  let low = 0.05;
  let high = 500;
  let machines = build(o.meanOnHours);
  let meanOffHours = o.meanOnHours;
  for (let step = 0; step < 60; step++) {
    meanOffHours = Math.sqrt(low * high);
    machines = build(meanOffHours);
    const achieved = meanOn(machines);
    if (Math.abs(achieved - o.targetMeanOn) <= 0.05) break;
    if (achieved > o.targetMeanOn) low = meanOffHours;
    else high = meanOffHours;
  }
  return { machines, spanS, meanOffHours, achievedMeanOn: meanOn(machines), options: o };
}

/** The trace in the Failure Trace Archive's tabular format, with `#` lines saying it is synthetic. */
export function classroomTraceToFta(trace: ClassroomTrace): string {
  const o = trace.options;
  const lines = [
    "# SYNTHETIC trace matched to [DAS06] §3.1 statistics (generator das06-like of ckpt-lab; not the paper's data)",
    `# parameters: machines=${o.machines} days=${o.days} seed=${o.seed} meanOnHours=${o.meanOnHours} meanOffHours=${trace.meanOffHours.toFixed(6)} targetMeanOn=${o.targetMeanOn} closeSaturdayMorning=${o.closeSaturdayMorning} rebootsPerOnHour=${o.rebootsPerOnHour}; achieved mean ON ${trace.achievedMeanOn.toFixed(3)}`,
    "# event_id component_id node_id platform_id node_name event_type event_start_time event_stop_time event_end_reason",
  ];
  trace.machines.forEach(({ starts, ends }, node) => {
    let id = 0;
    let t = 0;
    const row = (type: number, from: number, to: number) => lines.push(`${id++}\t0\t${node}\t0\t${node}\t${type}\t${CLASSROOM_EPOCH_S + from}\t${CLASSROOM_EPOCH_S + to}\tNULL`);
    for (let i = 0; i < starts.length; i++) {
      if (starts[i]! > t) row(0, t, starts[i]!);
      row(1, starts[i]!, ends[i]!);
      t = ends[i]!;
    }
    if (t < trace.spanS) row(0, t, trace.spanS);
  });
  return `${lines.join("\n")}\n`;
}

/** What the generator reports about its trace (docs/science.md §6.2.2). */
export function classroomStatistics(trace: ClassroomTrace) {
  const samples = Math.floor(trace.spanS / SAMPLE_S);
  const count = new Int32Array(samples);
  const on: number[] = [];
  const off: number[] = [];
  for (const { starts, ends } of trace.machines) {
    for (let i = 0; i < starts.length; i++) {
      for (let s = Math.ceil(starts[i]! / SAMPLE_S); s < Math.min(samples, Math.ceil(ends[i]! / SAMPLE_S)); s++) count[s]!++;
      on.push((ends[i]! - starts[i]!) / HOUR);
      if (i > 0) off.push((starts[i]! - ends[i - 1]!) / HOUR);
    }
  }
  const byHourOfWeek = Array.from({ length: 168 }, () => ({ sum: 0, n: 0 }));
  let changesWhileClosed = 0;
  for (let s = 0; s < samples; s++) {
    const t = s * SAMPLE_S;
    const cell = byHourOfWeek[Math.floor((t % WEEK) / HOUR)]!;
    cell.sum += count[s]!;
    cell.n++;
    if (s > 0 && isClosed(t, trace.options.closeSaturdayMorning) && isClosed(t - SAMPLE_S, trace.options.closeSaturdayMorning) && count[s] !== count[s - 1]) changesWhileClosed++;
  }
  const mean = (v: number[]) => (v.length === 0 ? 0 : v.reduce((a, b) => a + b, 0) / v.length);
  return {
    synthetic: true as const,
    generator: "das06-like",
    samples,
    meanOnMachines: trace.achievedMeanOn,
    meanAvailability: trace.achievedMeanOn / trace.options.machines,
    meanOffHours: trace.meanOffHours,
    onHours: { count: on.length, mean: mean(on) },
    offHours: { count: off.length, mean: mean(off) },
    meanOnByHourOfWeek: byHourOfWeek.map((c) => (c.n === 0 ? 0 : c.sum / c.n)),
    changesWhileClosed,
  };
}
