/**
 * `npm run bench -- simulate-bkt`: the [BKT] simulator at the paper's largest setting
 * (docs/science.md §6.4): 10^4 jobs on 2·10^4 clients, one replication, on one core.
 * Targets: none and Daly periodic together ≤ 20 s; the DP policy (PCkP) ≤ 2 minutes; the
 * engine ≥ 1 M events/s. Prints each policy's time, events and events/s, the DP's calls,
 * cache hits and share of the run, and the ratio of the time to its target.
 *
 * One run each (a run is tens of seconds; the machine line says how loaded it may be).
 */
import { BKT_PAPER_PRESET } from "../pipeline/simulate/bkt/bkt-scenario";
import { simulateBkt } from "../pipeline/simulate/bkt/bkt-simulator";
import { printTable } from "./harness";

export default async function bench(): Promise<void> {
  const rows: (string | number)[][] = [];
  let noneAndPeriodic = 0;
  for (const policy of ["none", "periodic", "pckp"] as const) {
    const started = performance.now();
    const report = await simulateBkt({ ...BKT_PAPER_PRESET, clients: 20_000, jobs: 10_000, policies: [policy] });
    const seconds = (performance.now() - started) / 1000;
    const run = report.runs[0]!;
    if (policy !== "pckp") noneAndPeriodic += seconds;
    rows.push([
      policy,
      seconds.toFixed(1),
      run.events,
      (run.events / seconds / 1e6).toFixed(2),
      run.makespanS === null ? "unfinished" : (run.makespanS / 3600).toFixed(1),
      run.dpCalls,
      run.dpCacheHits,
      policy === "pckp" ? `${(seconds / 120).toFixed(2)} of 120 s` : "",
    ]);
  }
  printTable(
    "[BKT] simulator, 20 000 clients, 10 000 jobs, one replication, one core",
    ["policy", "seconds", "events", "M events/s", "makespan h", "DP calls", "DP cache hits", "time / target"],
    rows,
  );
  console.log(`none + periodic: ${noneAndPeriodic.toFixed(1)} s (target ≤ 20 s: ${(noneAndPeriodic / 20).toFixed(2)} of it)`);
  console.log("events/s here include the policies' planning; the engine alone: npm run bench -- simulate-engine");
}
