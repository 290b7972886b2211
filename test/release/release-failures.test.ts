/**
 * `ckpt release` against failures a live Slurm cannot produce on demand: a command that
 * never answers, a 10 MB listing, a listing that reports errors, a controller that goes
 * away for a while. The Slurm commands here are STAND-INS on PATH (slurm-stand-ins.ts:
 * small shell scripts that print what Slurm 22.05 prints, from the recorded fixtures, and
 * fail on cue) — used only for this failure injection; the hook against the real daemons is
 * tested in slurm-release.test.ts and oar-release.test.ts.
 */
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../cli-io";
import { recorded, useSlurmStandIns } from "./slurm-stand-ins";

const stand = useSlurmStandIns();
const { cluster, calls, base } = stand;

describe("ckpt release when Slurm fails (stand-in commands on PATH)", () => {
  it("stops a command that does not answer, says which, and signals nothing", async () => {
    cluster(recorded.jobs);
    writeFileSync(join(stand.state, "squeue.mode"), "hang");
    const run = await runCli([...base(), "--nodes", "n1", "--deadline", "600", "--command-timeout-s", "1"]);
    expect(run).toMatchObject({ code: 1, stderr: expect.stringContaining("squeue --json --states=RUNNING --nodelist=n1 did not answer within 1 s (stopped)") });
    expect(calls().filter((c) => c.startsWith("scancel"))).toEqual([]);
    // The command was stopped, not left running.
    const pid = Number(readFileSync(join(stand.state, "squeue.pid"), "utf8"));
    expect(() => process.kill(pid, 0)).toThrow(/ESRCH/);
  });

  it("reads a 10 MB listing whole (no output cap) and keeps the jobs of the released nodes", async () => {
    // 3,000 copies of a recorded job on other nodes, and the recorded jobs of n1: 16 and 19 (n[1-2]).
    const others = Array.from({ length: 3000 }, (_, k) => ({ ...recorded.jobs[0], job_id: 100_000 + k, nodes: `m${k}`, job_resources: { ...(recorded.jobs[0]!.job_resources as object), nodes: `m${k}` } }));
    cluster([...others, ...recorded.jobs]);
    expect(statSync(join(stand.state, "squeue.json")).size).toBeGreaterThan(10_000_000);
    const run = await runCli([...base(), "--nodes", "n1", "--deadline", "600", "--dry-run", "--json"]);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).jobs.map((j: { jobId: string }) => j.jobId)).toEqual(["16", "19"]);
  });

  it("refuses a listing that reports errors, saying them, and signals nothing", async () => {
    cluster(recorded.jobs, { errors: [{ description: "Unable to query jobs", error: "Socket timed out on send/recv operation", source: "slurm_load_jobs" }] });
    const run = await runCli([...base(), "--nodes", "n1", "--deadline", "600"]);
    expect(run).toMatchObject({ code: 1, stderr: expect.stringContaining("squeue --json (openapi/v0.0.38) reported 1 error(s): Unable to query jobs, Socket timed out on send/recv operation, slurm_load_jobs") });
    expect(calls().filter((c) => c.startsWith("scancel"))).toEqual([]);
  });

  it("--watch outlives a controller that goes away, then releases the drained node through a failed signal and failed state reads", async () => {
    cluster(recorded.jobs);
    writeFileSync(join(stand.state, "sinfo.failures"), "3");
    writeFileSync(join(stand.state, "scontrol.failures"), "2");
    writeFileSync(join(stand.state, "scancel.failures"), "1");
    const log = join(stand.root, "watch.jsonl");
    const run = await runCli([...base(), "--watch", "--drain-reason", "^release", "--deadline", "600", "--poll-s", "0.2", "--poll-ms", "20", "--triggers", "1", "--log", log]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr.match(/warning: cannot read what takes nodes \(sinfo -h -N -o %N\|%T\|%E failed \(exit 1\): sinfo: error: Unable to contact slurm controller/g)).toHaveLength(3);
    expect(run.stderr).toMatch(/asking again in 0.2 s \(failure 1 in a row\)[^]*asking again in 0.4 s \(failure 2 in a row\)[^]*asking again in 0.8 s \(failure 3 in a row\)/);
    expect(run.stderr).toMatch(/slurm answers again after 3 failed poll\(s\)/);
    expect(run.stderr).toMatch(/drain of n1 \("release: test"\) seen at .*: releasing n1 within 600 s/);
    // The jobs of n1 — 16, and 19 on n[1-2] — one wave each (they share n1), each signalled once and requeued.
    // The first signal failed (the controller away): tried again.
    expect(calls().filter((c) => /^(scancel|scontrol requeue)/.test(c)).map((c) => c.split(" | ")[0])).toEqual([
      "scancel --signal=USR2 --batch 16",
      "scancel --signal=USR2 --batch 16",
      "scontrol requeue 16",
      "scancel --signal=USR2 --batch 19",
      "scontrol requeue 19",
    ]);
    // Every command ran with the fixed time format and without SQUEUE_FORMAT.
    for (const call of calls()) expect(call).toMatch(/\| SLURM_TIME_FORMAT=%s SQUEUE_FORMAT=unset$/);
    const lines = readFileSync(log, "utf8").trim().split("\n").map((line) => JSON.parse(line));
    expect(lines.map((l) => (l.type === "event" ? `${l.jobId} ${l.event}` : l.type))).toEqual([
      "plan",
      "16 signal-failed",
      "16 signalled",
      "16 state-unknown",
      "16 ended",
      "16 requeued",
      "19 signalled",
      "19 ended",
      "19 requeued",
      "outcome",
    ]);
    expect(lines.at(-1)).toMatchObject({ type: "outcome", release: 1, everyJobSaved: true });
  }, 30_000);
});
