/**
 * `ckpt release` against failures a live Slurm cannot produce on demand: a command that
 * never answers, a 10 MB listing, a listing that reports errors, a controller that goes
 * away for a while. The Slurm commands here are STAND-INS on PATH (small shell scripts
 * that print what Slurm 22.05 prints, from the recorded fixtures, and fail on cue) — used
 * only for this failure injection; the hook against the real daemons is tested in
 * slurm-release.test.ts and oar-release.test.ts.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../cli-io";
import { constantModel } from "../schedule/models";

let root = "";
let bin = "";
let state = "";
const savedEnv = { ...process.env };
const recorded = JSON.parse(readFileSync(join(__dirname, "fixtures/squeue-json/22.05.json"), "utf8")) as { jobs: Record<string, unknown>[] };

/** The stand-ins: each logs its call, then does what the files in $FAKE_SLURM_DIR say. */
const STAND_INS: Record<string, string> = {
  sinfo: `
if [ "$*" = "-h -N -o %N" ]; then printf 'n1\\nn2\\n'; exit 0; fi
n=$(cat "$D/sinfo.failures" 2>/dev/null || echo 0)
if [ "$n" -gt 0 ]; then echo $((n - 1)) > "$D/sinfo.failures"; echo "sinfo: error: Unable to contact slurm controller (connect failure)" >&2; exit 1; fi
printf 'n1|draining|release: test\\nn2|mixed|none\\n'`,
  squeue: `
case "$(cat "$D/squeue.mode" 2>/dev/null)" in
  hang) echo $$ > "$D/squeue.pid"; exec sleep 120 ;;
  *) cat "$D/squeue.json" ;;
esac`,
  scancel: `
n=$(cat "$D/scancel.failures" 2>/dev/null || echo 0)
if [ "$n" -gt 0 ]; then echo $((n - 1)) > "$D/scancel.failures"; echo "scancel: error: Kill job error on job id: Unable to contact slurm controller (connect failure)" >&2; exit 1; fi
for a in "$@"; do id=$a; done
echo "$1" > "$D/signalled.$id"`,
  scontrol: `
case "$1 $2 $3" in
  "-o show reservation") echo "No reservations in the system" ;;
  "-o show job")
    n=$(cat "$D/scontrol.failures" 2>/dev/null || echo 0)
    if [ "$n" -gt 0 ]; then echo $((n - 1)) > "$D/scontrol.failures"; echo "slurm_load_jobs error: Socket timed out on send/recv operation" >&2; exit 1; fi
    if [ -e "$D/requeued.$4" ]; then state=PENDING restarts=1
    elif [ -e "$D/signalled.$4" ]; then state=COMPLETED restarts=0
    else state=RUNNING restarts=0; fi
    echo "JobId=$4 JobName=stand-in UserId=root(0) JobState=$state Reason=None Requeue=1 Restarts=$restarts BatchFlag=1 ExitCode=0:0 NodeList=n1" ;;
  "requeue $2 ") touch "$D/requeued.$2" ;;
  *) echo "scontrol stand-in: unexpected $*" >&2; exit 1 ;;
esac`,
};

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "ckpt-release-stand-ins-"));
  bin = join(root, "bin");
  mkdirSync(bin);
  for (const [name, body] of Object.entries(STAND_INS)) {
    writeFileSync(join(bin, name), `#!/bin/bash\nD=$FAKE_SLURM_DIR\necho "${name} $* | SLURM_TIME_FORMAT=$SLURM_TIME_FORMAT SQUEUE_FORMAT=\${SQUEUE_FORMAT-unset}" >> "$D/calls.log"\n${body}\n`);
    chmodSync(join(bin, name), 0o755);
  }
  writeFileSync(join(root, "model.json"), JSON.stringify(constantModel(100, "100 MB/s")));
});

/** A fresh stand-in cluster for one test; its listing is `jobs` (the recorded 22.05 records). */
function cluster(jobs: Record<string, unknown>[], extra: Record<string, unknown> = {}): string {
  state = mkdtempSync(join(root, "state-"));
  // Pretty-printed, as squeue prints it.
  writeFileSync(join(state, "squeue.json"), JSON.stringify({ meta: { plugin: { type: "openapi/v0.0.38" } }, errors: [], jobs, ...extra }, null, 2));
  process.env.PATH = `${bin}:${savedEnv.PATH}`;
  process.env.FAKE_SLURM_DIR = state;
  // In root's environment this would change what squeue prints; the hook removes it.
  process.env.SQUEUE_FORMAT = "%i";
  return state;
}
const calls = () => (existsSync(join(state, "calls.log")) ? readFileSync(join(state, "calls.log"), "utf8").trim().split("\n") : []);
const base = () => ["release", "--rm", "slurm", "--model", join(root, "model.json"), "--lock", join(root, "lock")];

afterEach(() => {
  process.env = { ...savedEnv };
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("ckpt release when Slurm fails (stand-in commands on PATH)", () => {
  it("stops a command that does not answer, says which, and signals nothing", async () => {
    cluster(recorded.jobs);
    writeFileSync(join(state, "squeue.mode"), "hang");
    const run = await runCli([...base(), "--nodes", "n1", "--deadline", "600", "--command-timeout-s", "1"]);
    expect(run).toMatchObject({ code: 1, stderr: expect.stringContaining("squeue --json --states=RUNNING --nodelist=n1 did not answer within 1 s (stopped)") });
    expect(calls().filter((c) => c.startsWith("scancel"))).toEqual([]);
    // The command was stopped, not left running.
    const pid = Number(readFileSync(join(state, "squeue.pid"), "utf8"));
    expect(() => process.kill(pid, 0)).toThrow(/ESRCH/);
  });

  it("reads a 10 MB listing whole (no output cap) and keeps the jobs of the released nodes", async () => {
    // 3,000 copies of a recorded job on other nodes, and the recorded jobs of n1: 16 and 19 (n[1-2]).
    const others = Array.from({ length: 3000 }, (_, k) => ({ ...recorded.jobs[0], job_id: 100_000 + k, nodes: `m${k}`, job_resources: { ...(recorded.jobs[0]!.job_resources as object), nodes: `m${k}` } }));
    cluster([...others, ...recorded.jobs]);
    expect(statSync(join(state, "squeue.json")).size).toBeGreaterThan(10_000_000);
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
    writeFileSync(join(state, "sinfo.failures"), "3");
    writeFileSync(join(state, "scontrol.failures"), "2");
    writeFileSync(join(state, "scancel.failures"), "1");
    const log = join(root, "watch.jsonl");
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
