/**
 * The whole pipeline on the shipped sample traces (`ckpt pipeline --out <temporary folder>`,
 * the built CLI): one untimed run fills the folder and its figure cache, then 3 timed runs
 * with `--force` (every stage runs; figures whose spec did not change come from the cache,
 * as on a user's second run) and 3 timed no-op reruns (every stage skipped). Medians.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { median } from "../harness";
import { ROOT, formatMs, timeProcess, type Anchor } from "./anchor";

const RUNS = 3;
const TARGET_FORCE_MS = 2000;
const TARGET_NOOP_MS = 500;

export function pipelineAnchor(): Anchor {
  const cli = join(ROOT, "bin", "ckpt.js");
  const folder = mkdtempSync(join(tmpdir(), "ckpt-bench-pipeline-"));
  try {
    const out = join(folder, "report");
    const run = (...extra: string[]) => timeProcess(process.execPath, [cli, "pipeline", "--out", out, ...extra]);
    const first = run();
    const force = median(Array.from({ length: RUNS }, () => run("--force")));
    const noop = median(Array.from({ length: RUNS }, () => run()));
    return {
      work: "`ckpt pipeline --force` / no-op rerun (shipped traces)",
      reference: "—",
      ours: `${formatMs(force)} / ${formatMs(noop)}`,
      ratio: null,
      target: `≤ ${TARGET_FORCE_MS / 1000} s / ≤ ${TARGET_NOOP_MS / 1000} s`,
      met: force <= TARGET_FORCE_MS && noop <= TARGET_NOOP_MS,
      notes: [`first run into an empty folder (figures rendered, not cached): ${formatMs(first)}; ratios to the targets ${(force / TARGET_FORCE_MS).toFixed(2)}× / ${(noop / TARGET_NOOP_MS).toFixed(2)}×`],
    };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
