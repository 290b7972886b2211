/**
 * Acceptance (issue 6): a tiny emulator sweep, end to end — the harness's traces (the
 * canonical CSV, and the same runs as host logs) are what the ingest stage reads, and
 * `ckpt fit` fits the model on them.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { main } from "../../pipeline/cli";
import { ingestFiles } from "../../pipeline/ingest/ingest-files";
import { expectClose } from "../helpers";
import { temporaryFolder } from "./temp-dir";

const root = temporaryFolder("sweep-to-fit");
const out = join(root, "out");
const trace = join(out, "trace.csv");

async function ckpt(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, { stdout: (t) => (stdout += `${t}\n`), stderr: (t) => (stderr += `${t}\n`) });
  return { code, stdout, stderr };
}

describe("a tiny emulator sweep, end to end", () => {
  beforeAll(async () => {
    const sweepPath = join(root, "tiny.json");
    // 3 process counts × 3 sizes: 9 (m, v) cells, enough to identify the 5-term paper form;
    // and one mixed-size run, a validation point.
    writeFileSync(
      sweepPath,
      JSON.stringify({ backend: "emulate", dir: join(root, "target"), m: [1, 2, 3], sizeMb: [0.5, 1, 2], sizeSetsMb: [[0.5, 1, 2]], order: "grid" }),
    );
    const run = await ckpt("harness", "run", sweepPath, "--out", out, "--quiet", "--json");
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ total: 10, done: 10, traceRows: 21 });
  });

  it("is what ingest reads: every row accepted, the same runs from the CSV and from the host logs", async () => {
    const fromCsv = await ingestFiles([trace], { strict: true });
    const fromLogs = await ingestFiles([join(out, "host-logs")], { strict: true });
    for (const result of [fromCsv, fromLogs]) {
      expect(result.counts).toEqual({ read: 21, accepted: 21, rejected: 0 });
      expect(result.observations.series.map((s) => [s.sizeMb, s.points.map((p) => p.m)])).toEqual([
        [0.5, [1, 2, 3]],
        [1, [1, 2, 3]],
        [2, [1, 2, 3]],
      ]);
      expect(result.observations.validationRuns.map((r) => [r.m, r.vGb])).toEqual([[3, 0.0035]]);
    }
    // Same runs, same bandwidths up to rounding: both layouts keep microseconds (of the time
    // since the barrier in the CSV, of Unix time in the logs) and these images take ~1 ms.
    const bandwidths = (runs: { runId: string; aggregatedBwMbPerS: number }[]) => new Map(runs.map((r) => [r.runId, r.aggregatedBwMbPerS]));
    const csvRuns = bandwidths(fromCsv.observations.runs);
    const logRuns = bandwidths(fromLogs.observations.runs);
    expect([...logRuns.keys()].sort()).toEqual([...csvRuns.keys()].sort());
    for (const [runId, bw] of csvRuns) expectClose(logRuns.get(runId)!, bw, 0.02);
  });
});
