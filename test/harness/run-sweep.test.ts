import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readAllStates } from "../../pipeline/harness/combination-state";
import { acquireLease, currentOwner, releaseLease } from "../../pipeline/harness/lease";
import { parseSweep } from "../../pipeline/harness/parse-sweep";
import { runSweep, type ProgressEvent } from "../../pipeline/harness/run-sweep";
import { traceHeader } from "../../pipeline/harness/trace-rows";
import { temporaryFolder } from "./temp-dir";

const root = temporaryFolder("sweep");

describe("runSweep", () => {
  it("records failures (a full disk, a failing command) with their stderr and goes on; --retry-failed reruns them", async () => {
    const target = join(root, "target-a");
    const out = join(root, "out-a");
    const sweep = parseSweep(
      JSON.stringify({
        dir: target,
        sizeMb: [0.5],
        order: "grid",
        sweeps: [
          { backend: "emulate", m: [1, 2] },
          { backend: "command", m: [1], command: "echo 'quota exceeded on {dir}' >&2; exit 3" },
        ],
      }),
      "s.json",
      "t",
    );
    // The full disk: the m = 1 run's image goes to a device that is always full.
    mkdirSync(join(target, "t.m1-s0.5-emulate-r1"), { recursive: true });
    symlinkSync("/dev/full", join(target, "t.m1-s0.5-emulate-r1", "local-1.img"));
    const events: ProgressEvent[] = [];
    const first = await runSweep({ outDir: out, sweep, onProgress: (e) => events.push(e) });

    expect(first).toMatchObject({ total: 3, done: 1, todo: 0, ranNow: 3, traceRows: 2, interrupted: false });
    expect(first.failed.map((f) => [f.id, f.runFolder])).toEqual([
      ["t.m1-s0.5-emulate-r1", "runs/t.m1-s0.5-emulate-r1/attempt-1"],
      ["t.m1-s0.5-command-r1", "runs/t.m1-s0.5-command-r1/attempt-1"],
    ]);
    expect(first.failed[0]!.reason).toMatch(/process 1 \(local-1\) .*ENOSPC: no space left on device/);
    expect(first.failed[1]!.reason).toMatch(/exited with status 3: quota exceeded on/);
    expect(readFileSync(join(out, first.failed[0]!.runFolder!, "process-1.stderr"), "utf8")).toMatch(/ENOSPC/);
    const failedRecord = JSON.parse(readFileSync(join(out, first.failed[1]!.runFolder!, "run.json"), "utf8"));
    expect(failedRecord).toMatchObject({ status: "failed", toolVersion: expect.any(String), configuration: { command: expect.stringContaining("exit 3") } });
    expect(events.filter((e) => e.kind === "run-end")).toHaveLength(3);

    // The trace holds the one run that succeeded, in canonical form; so do the host logs.
    const trace = readFileSync(first.traceFile, "utf8").trim().split("\n");
    expect(trace[0]).toBe(traceHeader(null));
    expect(trace.slice(1).map((row) => row.split(",").slice(0, 3).join(","))).toEqual(["t.m2-s0.5-emulate-r1,local-1,2", "t.m2-s0.5-emulate-r1,local-2,2"]);
    expect(readdirSync(join(out, "host-logs"))).toEqual(["t.m2-s0.5-emulate-r1"]);
    // A done run's folder: command, configuration + host + provenance, logs, its rows.
    const doneFolder = join(out, "runs", "t.m2-s0.5-emulate-r1", "attempt-1");
    expect(readdirSync(doneFolder).sort()).toEqual(["command.sh", "process-1.stderr", "process-1.stdout", "process-2.stderr", "process-2.stdout", "run.json", "trace.csv"]);
    const record = JSON.parse(readFileSync(join(doneFolder, "run.json"), "utf8"));
    expect(record).toMatchObject({ status: "done", host: { cpuCount: expect.any(Number), target: { type: expect.any(String) } }, configuration: { m: 2 } });
    expect(record.gitCommit === null || /^[0-9a-f]{40}$/.test(record.gitCommit.commit)).toBe(true);
    expect(readFileSync(join(doneFolder, "command.sh"), "utf8")).toMatch(/emulate-worker\.[jt]s --size-mb 0\.5 --file .*local-2\.img --sync fsync/);

    // Without --resume the folder is refused; with it, done runs are kept and failed ones stay failed.
    await expect(runSweep({ outDir: out, sweep })).rejects.toThrow(/already holds the sweep "t" \(1 of 3 runs done\); pass --resume/);
    const again = await runSweep({ outDir: out, sweep, resume: true });
    expect(again).toMatchObject({ done: 1, ranNow: 0 });
    // --retry-failed: the disk has room now; the command still fails, in a second attempt.
    const retried = await runSweep({ outDir: out, sweep, resume: true, retryFailed: true });
    expect(retried).toMatchObject({ done: 2, ranNow: 2, traceRows: 3 });
    expect(retried.failed.map((f) => f.runFolder)).toEqual(["runs/t.m1-s0.5-command-r1/attempt-2"]);
    expect(readAllStates(out, ["t.m1-s0.5-command-r1"])[0]!.attempts).toBe(2);
  });

  it("refuses to resume with a changed sweep, and to run beside a live runner", async () => {
    const out = join(root, "out-b");
    const sweep = (m: number[]) => parseSweep(JSON.stringify({ backend: "emulate", dir: join(root, "target-b"), m, sizeMb: [0.5] }), "s.json", "t");
    const lease = acquireLease(join(out, "lease.json"), currentOwner(), 30_000);
    await expect(runSweep({ outDir: out, sweep: sweep([1]) })).rejects.toThrow(/being run by process \d+ on this host/);
    releaseLease(join(out, "lease.json"), lease);
    expect((await runSweep({ outDir: out, sweep: sweep([1]) })).done).toBe(1);
    await expect(runSweep({ outDir: out, sweep: sweep([1, 2]), resume: true })).rejects.toThrow(/differs from the one .* was started with/);
    expect(existsSync(join(out, "lease.json"))).toBe(false);
  });

  it("redoes a run whose trace file is missing or torn instead of reading it back", async () => {
    const out = join(root, "out-c");
    const sweep = parseSweep(JSON.stringify({ backend: "emulate", dir: join(root, "target-c"), m: [1], sizeMb: [0.5] }), "s.json", "t");
    await runSweep({ outDir: out, sweep });
    const tracePath = join(out, "runs", "t.m1-s0.5-r1", "attempt-1", "trace.csv");
    const text = readFileSync(tracePath, "utf8");
    writeFileSync(tracePath, text.slice(0, -10));
    const resumed = await runSweep({ outDir: out, sweep, resume: true });
    expect(resumed).toMatchObject({ done: 1, ranNow: 1, traceRows: 1 });
    expect(readAllStates(out, ["t.m1-s0.5-r1"])[0]).toMatchObject({ attempts: 2, runFolder: "runs/t.m1-s0.5-r1/attempt-2" });
  });

  it("refuses an --out folder holding files it did not write (#12.2), and leaves them as they were", async () => {
    const sweep = parseSweep(JSON.stringify({ backend: "emulate", dir: join(root, "target-d"), m: [1], sizeMb: [0.5] }), "s.json", "t");
    const out = join(root, "out-d");
    mkdirSync(out);
    writeFileSync(join(out, "trace.csv"), "my own measurements\n");
    await expect(runSweep({ outDir: out, sweep })).rejects.toThrow(/already holds files the harness did not write \(trace\.csv\); .*Name a new or empty folder/);
    expect(readFileSync(join(out, "trace.csv"), "utf8")).toBe("my own measurements\n");
    expect(readdirSync(out)).toEqual(["trace.csv"]);
    const file = join(root, "out-d-file");
    writeFileSync(file, "x");
    await expect(runSweep({ outDir: file, sweep })).rejects.toThrow(/is a file, not a folder/);
    // An empty folder, and a first start killed after taking its lease (a dead one), are fine.
    const empty = join(root, "out-d-empty");
    mkdirSync(empty);
    writeFileSync(join(empty, "lease.json"), JSON.stringify({ owner: { host: "elsewhere", pid: 1, token: "gone" }, acquiredAtMs: 0, expiresAtMs: 1 }));
    expect((await runSweep({ outDir: empty, sweep })).done).toBe(1);
  });

  it("a runner whose lease was taken over stops without touching anything (#12.3)", async () => {
    const target = join(root, "target-e");
    const out = join(root, "out-e");
    const sweep = parseSweep(JSON.stringify({ backend: "emulate", dir: target, m: [2, 1], sizeMb: [0.5], order: "grid" }), "s.json", "t");
    const id = "t.m2-s0.5-r1";
    let traceBefore = "";
    const run = runSweep({
      outDir: out,
      sweep,
      onRunReady: () => {
        // Another runner takes the sweep over while this one's first run is under way.
        traceBefore = readFileSync(join(out, "trace.csv"), "utf8");
        const lease = JSON.parse(readFileSync(join(out, "lease.json"), "utf8"));
        writeFileSync(join(out, "lease.json"), JSON.stringify({ ...lease, owner: { ...lease.owner, token: "the new runner" } }));
      },
    });
    await expect(run).rejects.toThrow(/another runner took over .*; stopped without touching its files/);
    // Its images (which may be the new runner's by now) are still there; its state, the trace
    // and the lease are as the new runner would find them.
    expect(readdirSync(join(target, id)).sort()).toEqual(["local-1.img", "local-2.img"]);
    expect(readAllStates(out, [id])[0]).toMatchObject({ status: "running", attempts: 1 });
    expect(readFileSync(join(out, "trace.csv"), "utf8")).toBe(traceBefore);
    expect(JSON.parse(readFileSync(join(out, "lease.json"), "utf8")).owner.token).toBe("the new runner");
  });
});
