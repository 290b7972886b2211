/**
 * The whole pipeline on the shipped sample traces (`ckpt pipeline --out <temporary folder>`,
 * the built CLI): one untimed run fills the folder and its figure cache, then 3 timed runs
 * with `--force` (every stage runs; figures whose spec did not change come from the cache,
 * as on a user's second run) and 3 timed no-op reruns (every stage skipped). Medians, with
 * where the time goes: each stage's own time (from `--json`; with two worker threads the
 * stages overlap, so they add up to more than the run) and the CPU time of the processes.
 *
 * `--force` is timed as the CLI runs by default (every stage on the main thread) and, for
 * comparison, with `--jobs 2` (two worker threads), and, to show how much of it is V8
 * starting cold, run WARM_RUNS times in one process (pipeline-warm.cjs): the last of those
 * does the same work with the code already compiled and optimised.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { median } from "../harness";
import { ROOT, formatMs, type Anchor } from "./anchor";

const RUNS = 3;
const WARM_RUNS = 4;
const TARGET_FORCE_MS = 2000;
const TARGET_NOOP_MS = 500;

interface PipelineRun {
  ms: number;
  cpuMs: number;
  stages: { name: string; ran: boolean; seconds: number }[];
}

function runPipeline(out: string, extra: string[]): PipelineRun {
  const cpuBefore = childrenCpuMs();
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, [join(ROOT, "bin", "ckpt.js"), "pipeline", "--out", out, "--json", ...extra], { cwd: ROOT, encoding: "utf8", maxBuffer: 64 << 20 });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`ckpt pipeline exited with ${result.status}: ${result.stderr.slice(0, 2000)}`);
  return { ms, cpuMs: childrenCpuMs() - cpuBefore, stages: (JSON.parse(result.stdout) as { stages: PipelineRun["stages"] }).stages };
}

/**
 * CPU time (user + system, all threads) of this process's children that have ended, in ms:
 * getrusage(RUSAGE_CHILDREN), read from /proc/self/stat's cutime and cstime (Linux; NaN elsewhere).
 */
function childrenCpuMs(): number {
  try {
    const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1]!.split(" ");
    const ticksPerSecond = 100; // USER_HZ
    return ((Number(fields[13]) + Number(fields[14])) / ticksPerSecond) * 1000;
  } catch {
    return NaN;
  }
}

/** "ingest 0.31, fit 0.05, …" — each stage's median seconds over the runs (its seconds, for one run). */
function stageTimes(runs: Pick<PipelineRun, "stages">[]): string {
  return runs[0]!.stages.map((stage, i) => `${stage.name} ${median(runs.map((r) => r.stages[i]!.seconds)).toFixed(2)}`).join(", ");
}

export function pipelineAnchor(): Anchor {
  const folder = mkdtempSync(join(tmpdir(), "ckpt-bench-pipeline-"));
  try {
    const out = join(folder, "report");
    const first = runPipeline(out, []);
    const force = Array.from({ length: RUNS }, () => runPipeline(out, ["--force"]));
    const forceTwoThreads = Array.from({ length: RUNS }, () => runPipeline(out, ["--force", "--jobs", "2"]));
    const noop = Array.from({ length: RUNS }, () => runPipeline(out, []));
    const inOneProcess = JSON.parse(execFileSync(process.execPath, [join(__dirname, "pipeline-warm.cjs"), ROOT, out, String(WARM_RUNS)], { cwd: ROOT, encoding: "utf8" })) as { ms: number; stages: PipelineRun["stages"] }[];
    const warm = inOneProcess.at(-1)!;
    const forceMs = median(force.map((r) => r.ms));
    const forceTwoThreadsMs = median(forceTwoThreads.map((r) => r.ms));
    const noopMs = median(noop.map((r) => r.ms));
    return {
      work: "`ckpt pipeline --force` / no-op rerun (shipped traces)",
      reference: "—",
      ours: `${formatMs(forceMs)} / ${formatMs(noopMs)}`,
      ratio: null,
      target: `≤ ${TARGET_FORCE_MS / 1000} s / ≤ ${TARGET_NOOP_MS / 1000} s`,
      met: forceMs <= TARGET_FORCE_MS && noopMs <= TARGET_NOOP_MS,
      notes: [
        `first run into an empty folder (figures rendered, not cached): ${formatMs(first.ms)}; ratios to the targets ${(forceMs / TARGET_FORCE_MS).toFixed(2)}× / ${(noopMs / TARGET_NOOP_MS).toFixed(2)}×`,
        `CPU time of the process: --force ${formatMs(median(force.map((r) => r.cpuMs)))}, no-op ${formatMs(median(noop.map((r) => r.cpuMs)))}`,
        `--force, each stage's own seconds: ${stageTimes(force)}`,
        `--force ${WARM_RUNS} times in one process: ${inOneProcess.map((r) => formatMs(r.ms)).join(", ")}; stage by stage, the first (as the CLI runs) ${stageTimes([inOneProcess[0]!])}; the last, with the code the earlier runs compiled and optimised, ${stageTimes([warm])}. The difference is what a fresh process pays to load, compile and optimise the code: node 20 keeps no compiled code between processes`,
        `--force --jobs 2 (stages side by side in two worker threads): ${formatMs(forceTwoThreadsMs)}, ${formatMs(median(forceTwoThreads.map((r) => r.cpuMs)))} of CPU; each thread loads and compiles its own copy of the code`,
        `no-op: every stage skipped after hashing what it depends on (stat-cached), ${stageTimes(noop)} s; the rest is node's start-up, loading the runner (27 modules), linking the previous report into the build folder and swapping it in`,
      ],
    };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
