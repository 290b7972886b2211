/**
 * `npm run bench -- simulate-das06`: the whole [DAS06] paper grid (docs/science.md §6.2.7,
 * 96 cells × 4 policies from every starting point of their window, on the synthetic
 * classroom trace) in one process on one core. Target (issue #14): ≤ 1 minute. Prints the
 * cells, starting points, runs and events, the time and its ratio to the target, and checks
 * that a second run gives the same merged result (same seed → same output).
 *
 * One run of the grid per repetition, three repetitions: the median is quoted, wall-clock and
 * CPU time (on a loaded machine the second says how much of the first was the run's).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { projectRoot } from "../pipeline/shared/version";
import { mergeSweep } from "../pipeline/simulate/sweep/merge-sweep";
import { runShard } from "../pipeline/simulate/sweep/run-shard";
import { parseSweepSpec } from "../pipeline/simulate/sweep/sweep-spec";
import { SIMULATORS } from "../pipeline/simulate/simulator";
import { printTable } from "./harness";

export default async function bench(): Promise<void> {
  const path = join(projectRoot(), "data/simulations/das06-paper-grid.json");
  const spec = parseSweepSpec(readFileSync(path, "utf8"), path);
  const seconds: number[] = [];
  const cpuSeconds: number[] = [];
  const merged: string[] = [];
  let totals = { cells: 0, startingPoints: 0, events: 0 };
  for (let repetition = 0; repetition < 3; repetition++) {
    const folder = mkdtempSync(join(tmpdir(), "ckpt-bench-das06-"));
    try {
      const started = performance.now();
      const cpu = process.cpuUsage();
      await runShard(spec, SIMULATORS, folder);
      seconds.push((performance.now() - started) / 1000);
      const used = process.cpuUsage(cpu);
      cpuSeconds.push((used.user + used.system) / 1e6);
      const result = mergeSweep(spec, [folder]);
      merged.push(JSON.stringify(result.groups));
      totals = {
        cells: result.cells.length,
        startingPoints: result.cells.reduce((sum, c) => sum + Number(c.metrics.startingPoints ?? 0), 0),
        events: result.cells.reduce((sum, c) => sum + Number(c.metrics.events ?? 0), 0),
      };
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }
  const median = [...seconds].sort((a, b) => a - b)[1]!;
  const policies = (spec.parameters.policies as string[]).length;
  printTable(
    "[DAS06] paper grid, synthetic classroom trace, one process",
    ["cells", "starting points", "policy runs", "events", "median s (of 3)", "median CPU s", "runs/s", "time / target (60 s)"],
    [[totals.cells, totals.startingPoints, totals.startingPoints * policies, totals.events, median.toFixed(1), [...cpuSeconds].sort((a, b) => a - b)[1]!.toFixed(1), ((totals.startingPoints * policies) / median).toFixed(0), (median / 60).toFixed(2)]],
  );
  console.log(`all runs: ${seconds.map((s) => s.toFixed(1)).join(", ")} s; merged results identical across runs: ${merged.every((m) => m === merged[0]) ? "yes" : "NO"}`);
}
