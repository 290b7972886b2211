/**
 * test/hunt-flaky.sh, the README's hunt for flaky tests, on a stand-in suite (the real one
 * is `npm run test:all`, which starts the clusters: not a thing to run inside a test). The
 * stand-in passes its first run and fails its second, as a flaky test does, and says how
 * many of the hunt's spinning processes it saw.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const scratch = mkdtempSync(join(tmpdir(), "ckpt-hunt-flaky-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The processes whose command line holds `marker`. */
function processesWith(marker: string): string[] {
  return readdirSync("/proc").filter((pid) => {
    if (!/^\d+$/.test(pid)) return false;
    try {
      return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(marker);
    } catch {
      return false; // ended meanwhile
    }
  });
}

describe("test/hunt-flaky.sh", () => {
  it("runs the suite N times, the last with both cores busy, and reports each failed run with its failing tests", () => {
    const counter = join(scratch, "runs");
    const logs = join(scratch, "logs");
    const standIn = [
      `n=$(( $(cat ${counter} 2>/dev/null || echo 0) + 1 )); echo $n > ${counter}`,
      'echo "spinning: $(pgrep -fc "hunt-flaky-busy-$PPID")"',
      'if [ $n -eq 2 ]; then echo " FAIL  test/x.test.ts > a flaky one"; echo "1 passed, 1 failed"; exit 1; fi',
      'echo "2 passed, 0 failed"',
    ].join("; ");
    const run = spawnSync("bash", ["test/hunt-flaky.sh", "2"], { encoding: "utf8", env: { ...process.env, HUNT_COMMAND: standIn, HUNT_LOGS: logs }, timeout: 60_000 });
    expect(run.status, run.stderr).toBe(1);
    expect(run.stdout.split("\n")).toEqual([
      `run 1/2: ${standIn}`,
      "  passed: 2 passed, 0 failed",
      `run 2/2, both cores kept busy: ${standIn}`,
      `  FAILED (exit 1): 1 passed, 1 failed; the whole output: ${join(logs, "run-2.log")}`,
      "  FAIL  test/x.test.ts > a flaky one",
      `1 of 2 runs failed: the tests named above are flaky (or broken); logs in ${logs}`,
      "",
    ]);
    expect(readFileSync(join(logs, "run-1.log"), "utf8")).toMatch(/^spinning: 0$/m);
    expect(readFileSync(join(logs, "run-2.log"), "utf8")).toMatch(/^spinning: 2$/m);
    // Stopped with their run: none is left behind.
    expect(processesWith(`hunt-flaky-busy-${run.pid}`)).toEqual([]);
  });

  it("says so when every run passes, and refuses a count that is not a number", () => {
    const passing = spawnSync("bash", ["test/hunt-flaky.sh", "1"], { encoding: "utf8", env: { ...process.env, HUNT_COMMAND: "echo '3 passed, 0 failed'", HUNT_LOGS: join(scratch, "ok") } });
    expect(passing.status).toBe(0);
    expect(passing.stdout.trimEnd().split("\n").slice(-2)).toEqual(["  passed: 3 passed, 0 failed", "all 1 runs passed"]);
    const usage = spawnSync("bash", ["test/hunt-flaky.sh", "x"], { encoding: "utf8" });
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain("usage: test/hunt-flaky.sh [runs ≥ 1]");
  });
});
