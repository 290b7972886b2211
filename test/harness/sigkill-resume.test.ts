/**
 * Acceptance (issue 6): a sweep killed with SIGKILL in the middle of a run and resumed
 * ends with each combination in the trace exactly once.
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { constants, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { Socket } from "node:net";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { readAllStates } from "../../pipeline/harness/combination-state";
import { parseSweep } from "../../pipeline/harness/parse-sweep";
import { planSweep } from "../../pipeline/harness/plan-sweep";
import { processesMentioning, survivorsMentioning, until } from "./processes";
import { temporaryFolder } from "./temp-dir";

const root = temporaryFolder("sigkill");
const ckpt = [process.execPath, "--import", "tsx", join(__dirname, "ckpt-from-source.ts")];

function statuses(out: string): string[] {
  try {
    return readdirSync(join(out, "state")).filter((f) => f.endsWith(".json")).map((f) => JSON.parse(readFileSync(join(out, "state", f), "utf8")).status);
  } catch {
    return [];
  }
}

describe("a sweep killed with SIGKILL", () => {
  it("resumes to a trace with each combination exactly once", async () => {
    const target = join(root, "target");
    const out = join(root, "out");
    const sweepPath = join(root, "kill.json");
    const sweepText = JSON.stringify({ backend: "emulate", dir: target, m: [1, 2], sizeMb: [0.5, 1], repetitions: 2 });
    writeFileSync(sweepPath, sweepText);
    const plan = planSweep(parseSweep(sweepText, sweepPath, "kill"));

    // The third run in the plan's order blocks in its first worker's write: that image is a
    // FIFO no one reads yet. So the kill comes, by construction, after two runs are done
    // and during the third (the first two are the plan's first two: runs go in plan order).
    const caught = plan.combinations[2]!;
    const fifo = join(target, caught.id, "local-1.img");
    mkdirSync(dirname(fifo), { recursive: true });
    execFileSync("mkfifo", [fifo]);
    const runner = spawn(ckpt[0]!, [...ckpt.slice(1), "harness", "run", sweepPath, "--out", out, "--quiet"], { stdio: "ignore" });
    await until(() => processesMentioning(fifo).length > 0 && statuses(out).includes("running"));
    expect(statuses(out).filter((s) => s === "done")).toHaveLength(2);
    runner.kill("SIGKILL");
    await new Promise((resolve) => runner.once("exit", resolve));
    const doneAtKill = statuses(out).filter((s) => s === "done").length;
    expect(doneAtKill).toBe(2);
    expect(statuses(out)).toContain("running");

    // Its workers notice the parent is gone and exit; nothing keeps writing. A worker held in
    // its open() of the FIFO goes on once it has a reader, writes, and sees the parent gone;
    // one that never reached the open() exits without it. Opened read-write, the FIFO has a
    // reader at once and never reads as ended, whichever of the two happens: the socket
    // drains what a worker writes until none is left (a reader opened later, or a writer's
    // end given before the reader's open, left the test waiting on a FIFO no one would open).
    const drain = new Socket({ fd: openSync(fifo, constants.O_RDWR | constants.O_NONBLOCK), readable: true, writable: false });
    drain.resume();
    expect(await survivorsMentioning(target)).toEqual([]);
    drain.destroy();
    rmSync(fifo);

    const resumed = spawnSync(ckpt[0]!, [...ckpt.slice(1), "harness", "run", sweepPath, "--out", out, "--resume", "--json"], { encoding: "utf8" });
    expect(resumed.status, resumed.stderr).toBe(0);
    const summary = JSON.parse(resumed.stdout);
    expect(summary).toMatchObject({ total: 8, done: 8, failed: [], ranNow: 8 - doneAtKill });

    const rows = readFileSync(join(out, "trace.csv"), "utf8").trim().split("\n").slice(1).map((line) => line.split(","));
    const runIds = [...new Set(rows.map((r) => r[0]))].sort();
    expect(runIds).toEqual(plan.combinations.map((c) => c.id).sort());
    for (const c of plan.combinations) {
      const own = rows.filter((r) => r[0] === c.id);
      expect(own.map((r) => r[1]).sort(), c.id).toEqual(Array.from({ length: c.m }, (_, i) => `local-${i + 1}`));
    }
    // The run caught by the kill was redone as a second attempt, in its own folder.
    const states = readAllStates(out, plan.combinations.map((c) => c.id));
    expect(states.filter((s) => s.attempts === 2).map((s) => s.runFolder)).toEqual([expect.stringMatching(/attempt-2$/)]);
  });
});

describe("a sweep stopped with SIGTERM (or Ctrl-C)", () => {
  it("stops the current run, leaves it to do, and exits 130", async () => {
    const out = join(root, "out-term");
    const sweepPath = join(root, "term.json");
    // A checkpoint command that would take 29 s and more, whose duration marks its process.
    const marker = `29.${process.pid}`;
    writeFileSync(sweepPath, JSON.stringify({ backend: "command", dir: join(root, "target-term"), m: [1], sizeMb: [1], command: `sleep ${marker}` }));
    const runner = spawn(ckpt[0]!, [...ckpt.slice(1), "harness", "run", sweepPath, "--out", out, "--quiet"], { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    runner.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    // The command is started: its process is there (the sleep marks it).
    await until(() => processesMentioning(marker).length > 0);
    runner.kill("SIGTERM");
    const code = await new Promise<number | null>((resolve) => runner.once("exit", (c) => resolve(c)));
    expect(code, stderr).toBe(130);
    expect(stderr).toContain("SIGTERM: stopping the current run; resume with --resume");
    const [state] = readAllStates(out, ["term.m1-s1-r1"]);
    expect(state).toMatchObject({ status: "todo", attempts: 1, reason: expect.stringMatching(/^interrupted: SIGTERM/) });
    expect(await survivorsMentioning(marker)).toEqual([]);
  });
});
