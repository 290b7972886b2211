/**
 * The log of `ckpt release --log` read by `ckpt ingest` as a trace: a log written by a real
 * run of the hook (against the Slurm stand-ins of test/release/slurm-stand-ins.ts) detected
 * and named, each saved wave a run; and a log holding every kind of unusable line, each
 * rejected with its reason in the rejects file while the usable waves are kept.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { detectTraceFormat } from "../../pipeline/ingest/detect-trace-format";
import { readReleaseLog } from "../../pipeline/ingest/release-log-reader";
import { runCli } from "../cli-io";
import { recorded, useSlurmStandIns } from "../release/slurm-stand-ins";

const stand = useSlurmStandIns();

const plan = (release: number, at: string, jobs: { jobId: string; sizeMb: number | null; wave: number | null }[]) =>
  JSON.stringify({ type: "plan", release, at, plan: { schema: "ckpt-lab/release-plan@2", rm: "slurm", jobs } });
const event = (release: number, jobId: string, kind: string, atS: number) => JSON.stringify({ type: "event", release, at: "t", atS, jobId, event: kind });
const outcome = (release: number, jobs: [string, string][]) =>
  JSON.stringify({ type: "outcome", release, at: "t", everyJobSaved: false, jobs: jobs.map(([jobId, o]) => ({ jobId, outcome: o })) });

describe("ckpt ingest reads a release log", () => {
  it("reads the log a real run of ckpt release wrote: each wave that saved a run, its requeue lines rejected with why", async () => {
    stand.cluster(recorded.jobs);
    const log = join(stand.root, "release.jsonl");
    const release = await runCli([...stand.base(), "--nodes", "n1", "--deadline", "600", "--poll-ms", "20", "--default-size-mb", "512", "--log", log]);
    expect(release.code, release.stderr).toBe(0);
    const lines = readFileSync(log, "utf8").trim().split("\n");
    expect(detectTraceFormat(lines.join("\n"))).toEqual({ format: "release-log" });
    const rejects = join(stand.root, "rejects.csv");
    const ingest = await runCli(["ingest", log, "--out", join(stand.root, "obs.json"), "--rejects", rejects, "--json"]);
    expect(ingest.code, ingest.stderr).toBe(0);
    const summary = JSON.parse(ingest.stdout);
    expect(summary.formats).toEqual([{ path: log, format: "ckpt release log" }]);
    const observations = JSON.parse(readFileSync(join(stand.root, "obs.json"), "utf8")).observations;
    // Jobs 16 and 19 share n1: one wave each (waves numbered from 1), so two runs of m = 1.
    const runs = observations.runs as { runId: string; m: number; bwMbPerS: number; attributes: Record<string, string> }[];
    expect(runs.map((r) => [r.runId.replace(/@.*\//, "@…/"), r.m])).toEqual([
      ["release1@…/wave1", 1],
      ["release1@…/wave2", 1],
    ]);
    for (const run of runs) expect(run.attributes).toMatchObject({ bandwidth_definition: "bytes-over-wall-time", benchmark: "ckpt-release", rm: "slurm" });
    // Every line is read: plan + outcome + 2 × (signalled, ended) in the runs, the 2 requeued lines rejected.
    expect(summary.counts).toMatchObject({ read: lines.length, accepted: lines.length - 2, rejected: 2 });
    const rejected = readFileSync(rejects, "utf8");
    expect(rejected.match(/not-a-write/g)).toHaveLength(2);
    expect(rejected).toMatch(/release log: a ""requeued"" event of job 16: only a job's signal and end time its checkpoint/);
  }, 30_000);

  it("rejects every unusable line with its reason and keeps the waves that saved", () => {
    const text = [
      /* 1 */ event(1, "9", "signalled", 0),
      /* 2 */ plan(1, "2026-01-01T00:00:00Z", [
        { jobId: "1", sizeMb: 100, wave: 0 },
        { jobId: "2", sizeMb: 100, wave: 0 },
        { jobId: "3", sizeMb: 300, wave: 1 },
        { jobId: "4", sizeMb: null, wave: 1 },
        { jobId: "5", sizeMb: 100, wave: 1 },
        { jobId: "6", sizeMb: 100, wave: 1 },
      ]),
      /* 3 */ event(1, "1", "signalled", 1),
      /* 4 */ event(1, "2", "signalled", 1.5),
      /* 5 */ event(1, "1", "ended", 3),
      /* 6 */ event(1, "2", "ended", 5),
      /* 7 */ event(1, "1", "requeued", 5.1),
      /* 8 */ event(1, "3", "signalled", 6),
      /* 9 */ event(1, "3", "ended", 9),
      /* 10 */ event(1, "4", "signalled", 6),
      /* 11 */ event(1, "4", "ended", 8),
      /* 12 */ event(1, "5", "signalled", 6),
      /* 13 */ event(1, "6", "signalled", 6),
      /* 14 */ event(1, "6", "ended", 7),
      /* 15 */ event(1, "7", "ended", 7),
      /* 16 */ '{"type":"event","release":1,"at":"t","atS":7.5,"jobId":"3","eve',
      /* 17 */ JSON.stringify({ type: "note", release: 1 }),
      /* 18 */ outcome(1, [["1", "saved"], ["2", "saved-not-requeued"], ["3", "saved"], ["4", "saved"], ["5", "still-running"], ["6", "not-saved"]]),
      /* 19 */ "",
      /* 20 */ plan(1, "2026-01-02T00:00:00Z", [{ jobId: "8", sizeMb: 50, wave: 0 }]),
      /* 21 */ event(1, "8", "signalled", 0),
      /* 22 */ event(1, "8", "ended", 0),
      /* 23 */ outcome(1, [["8", "saved"]]),
    ].join("\n");
    const reading = readReleaseLog(text);
    // Wave 0: jobs 1 and 2, 200 MB from the first signal (1 s) to the last end (5 s); wave 1: job 3 alone, 300 MB in 3 s.
    expect(reading.runs.map(({ runId, m, sumSizeMb, uniformSizeMb, aggregatedBwMbPerS, rows, line }) => ({ runId, m, sumSizeMb, uniformSizeMb, aggregatedBwMbPerS, rows, line }))).toEqual([
      { runId: "release1@2026-01-01T00:00:00Z/wave0", m: 2, sumSizeMb: 200, uniformSizeMb: 100, aggregatedBwMbPerS: 200 / 4, rows: 6, line: 3 },
      { runId: "release1@2026-01-01T00:00:00Z/wave1", m: 1, sumSizeMb: 300, uniformSizeMb: 300, aggregatedBwMbPerS: 100, rows: 2, line: 8 },
    ]);
    const why = reading.rejects.map((r) => [r.line, r.code]);
    expect(why).toEqual([
      [1, "unpaired-event"], // before its release's plan
      [7, "not-a-write"], // a requeue
      [10, "non-positive-size"], // job 4 has no size
      [11, "non-positive-size"],
      [12, "unpaired-event"], // job 5 never ended
      [13, "job-error"], // job 6 ended without saving
      [14, "job-error"],
      [15, "unpaired-event"], // job 7 ended without a signal
      [16, "malformed-result"], // cut when the hook stopped
      [17, "malformed-result"], // unknown type
      [20, "not-a-write"], // the second release measured nothing: its plan,
      [21, "zero-duration"], // its one job's signal and end at the same second,
      [22, "zero-duration"],
      [23, "not-a-write"], // and its outcome
    ]);
    // Every non-blank line is accounted for: in a run or rejected.
    expect(reading.runs.reduce((sum, r) => sum + r.rows, 0) + reading.rejects.length).toBe(22);
    expect(reading.rejects.find((r) => r.line === 12)!.reason).toMatch(/job 5 of release 1 \(plan at line 2\) was signalled but its end is not in the log/);
    expect(reading.rejects.find((r) => r.line === 13)!.reason).toMatch(/ended with outcome not-saved: not a finished checkpoint/);
    expect(reading.rejects.find((r) => r.line === 16)!.reason).toMatch(/not a JSON object .*was the line cut when the hook stopped/);
  });

  it("is forced by --format release-log, and --help names it", async () => {
    const log = join(stand.root, "forced.txt");
    writeFileSync(log, [plan(2, "x", [{ jobId: "1", sizeMb: 10, wave: 0 }]), event(2, "1", "signalled", 0), event(2, "1", "ended", 1), outcome(2, [["1", "saved"]])].join("\n"));
    const forced = await runCli(["ingest", log, "--format", "release-log", "--out", join(stand.root, "forced.json"), "--json"]);
    expect(forced.code, forced.stderr).toBe(0);
    expect(JSON.parse(forced.stdout).formats[0].format).toBe("ckpt release log");
    const help = await runCli(["ingest", "--help"]);
    expect(help.stdout).toMatch(/release-log/);
    expect(help.stdout).toMatch(/release log +the log `ckpt release --log FILE` appends/);
  });
});
