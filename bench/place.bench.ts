/**
 * `npm run bench -- place`: the DP placer's speed (issue 4's targets).
 *
 * 1. One job of n = 50 slices (Uniform[1, 5] h), costs Uniform{1..60} quanta of 60 s,
 *    [BKT] Table I's availability law Weibull(0.431, 1.682 h): median solve time (target
 *    ≤ 100 ms), the DP's transitions and ns per transition, law evaluations and ns per
 *    evaluation; and, as the reference in the same run, a naive DP that calls the law
 *    inside the transition loop (what the precomputed tables save).
 * 2. A bag of 10,000 jobs of [BKT] Table II's desktop-grid workload (docs/science.md §5.5) on
 *    worker threads (both cores; target ≤ 60 s), and on one thread for the speed-up.
 */
import { cpus } from "node:os";
import {
  createLaw,
  desktopGridJobs,
  solveBatch,
  variableCostDp,
  type FailureLaw,
  type LawSpec,
} from "../pipeline/place";
import { createRandom } from "../pipeline/shared/random";
import { median, printTable, timeRuns } from "./harness";

const QUANTUM = 60;
const BKT_AVAILABILITY: LawSpec = { kind: "weibull", shape: 0.431, scaleSeconds: 1.682 * 3600 };

/** The DP written directly from [BTW10] eq. 3, Δ from the law at every transition: the reference. */
function naiveDp(p: number[], cq: number[], law: FailureLaw): number {
  const n = p.length;
  const tau = [0];
  const total = cq.reduce((s, c) => s + c, 0);
  for (const x of p) tau.push(tau[tau.length - 1]! + x);
  const W = Array.from({ length: n + 1 }, () => new Float64Array(total + 1).fill(Infinity));
  W[0]![0] = 0;
  for (let l = 1; l <= n; l++) {
    for (let r = 0; r < l; r++) {
      for (let sigma = 0; sigma <= total - cq[l - 1]!; sigma++) {
        const before = W[r]![sigma]!;
        if (before === Infinity) continue;
        const theta = sigma + cq[l - 1]!;
        const rhoR = tau[r]! + sigma * QUANTUM;
        const rhoL = tau[l]! + theta * QUANTUM;
        const delta =
          (sigma * QUANTUM - rhoR) * (law.cdf(rhoL) - law.cdf(rhoR)) + (law.partialExpectation(rhoL) - law.partialExpectation(rhoR));
        if (before + delta < W[l]![theta]!) W[l]![theta] = before + delta;
      }
    }
  }
  return Math.min(...W[n]!);
}

export default async function bench(): Promise<void> {
  const law = createLaw(BKT_AVAILABILITY);
  const random = createRandom(50);
  const slicesSeconds = Array.from({ length: 50 }, () => random.uniform(3600, 5 * 3600));
  const costsQuanta = Array.from({ length: 50 }, () => random.integer(1, 60));
  const rows: (string | number)[][] = [];
  for (const beta of [0, 1]) {
    const input = { slicesSeconds, costsQuanta, quantumSeconds: QUANTUM, law, alpha: 1, beta, objective: "paper" as const };
    let last = variableCostDp(input);
    const tables: number[] = [];
    const searches: number[] = [];
    const times = await timeRuns(() => {
      last = variableCostDp(input);
      tables.push(last.stats.tableMicros);
      searches.push(last.stats.searchMicros);
    }, 21, 3);
    const s = last.stats;
    rows.push([
      `β = ${beta}`,
      median(times),
      s.states,
      s.reachableStates,
      s.transitions,
      (median(searches) * 1000) / s.transitions,
      s.lawEvaluations,
      (median(tables) * 1000) / s.lawEvaluations,
      (s.memoryBytes / 2 ** 20).toFixed(1),
    ]);
  }
  printTable(
    "DP, one job: n = 50 slices, costs ≤ 60 quanta, Weibull(0.431, 1.682 h); medians of 21 runs (target ≤ 100 ms)",
    ["case", "solve ms", "states", "reachable", "transitions", "ns/transition", "law evals", "ns/law eval", "memory MiB"],
    rows,
  );
  const naiveTimes = await timeRuns(() => naiveDp(slicesSeconds, costsQuanta, law), 3, 0);
  const fast = variableCostDp({ slicesSeconds, costsQuanta, quantumSeconds: QUANTUM, law, alpha: 1, beta: 0, objective: "paper" });
  const naiveValue = naiveDp(slicesSeconds, costsQuanta, law);
  printTable(
    "reference: naive DP with law calls in the transition loop (β = 0), median of 3 runs",
    ["solver", "solve ms", "ratio to tabled DP", "same optimum (rel. diff)"],
    [["naive", median(naiveTimes), median(naiveTimes) / Number(rows[0]![1]), Math.abs(naiveValue - fast.expectedWaste) / fast.expectedWaste]],
  );

  const jobs = desktopGridJobs({ jobs: 10_000, seed: 2011 });
  const options = { alpha: 1, beta: 0, objective: "paper" as const, quantumSeconds: QUANTUM };
  const threads = Math.max(2, Math.min(2, cpus().length));
  const batchRows: (string | number)[][] = [];
  for (const t of [threads, 1]) {
    const runs = t === 1 ? 1 : 3;
    const walls: number[] = [];
    let transitions = 0;
    for (let i = 0; i < runs; i++) {
      const result = await solveBatch(jobs, BKT_AVAILABILITY, { ...options, threads: t });
      walls.push(result.wallMicros / 1e6);
      transitions = result.transitions;
    }
    batchRows.push([t, runs, median(walls), transitions, (median(walls) * 1e9) / transitions]);
  }
  batchRows[1]!.push(`speed-up ${(Number(batchRows[1]![2]) / Number(batchRows[0]![2])).toFixed(2)}×`);
  batchRows[0]!.push("");
  const totalSlices = jobs.reduce((s, j) => s + j.slicesSeconds.length, 0);
  printTable(
    `batch: 10,000 desktop-grid jobs ([BKT] Table II: Uniform{1..50} slices of 1–5 h, ${totalSlices} slices in all), Weibull(0.431, 1.682 h), quantum 60 s (target ≤ 60 s on 2 cores)`,
    ["threads", "runs", "median total s", "transitions", "ns/transition (wall)", ""],
    batchRows,
  );
}
