/**
 * The log of `ckpt release --log FILE` (release/release-log.ts: one JSON object per line — a
 * release's plan, each signal, end and requeue, its outcome) read as a trace, so that each
 * maintenance window measures the cluster for free.
 *
 * What a release measures: the jobs of one wave are signalled together and write their
 * checkpoints at the same time, so a wave is one run of bw(m, V): m = the wave's jobs that
 * saved (outcome "saved", or "saved-not-requeued": the checkpoint was written all the
 * same), V = Σ of their sizes (the plan's size_mb), and the aggregated bandwidth is V over
 * the wall time from the wave's first signal to its last end (bandwidth_definition
 * bytes-over-wall-time, as IOR's; docs/science.md §3.1.1). The times are the hook's: a
 * job's signal-to-end includes its reaction to the signal and its exit, so the bandwidth
 * is what a release gets, not the device's alone. Runs are named
 * `release<N>@<plan time>/wave<w>` (a log appended by several invocations numbers each
 * one's releases from 1 again: the plan's time tells them apart).
 *
 * Every non-blank line is a record: the signal and end lines of a run's jobs, and the
 * release's plan and outcome lines (which give the sizes, waves and outcomes), are
 * accounted for by its runs; every other line is rejected with why — not JSON, an unknown
 * type, an event before its release's plan, an event that is not a signal or an end
 * (requeued, skipped, state-unknown …), a job signalled but not ended or not saved, a job
 * without a size, an end not after its signal, and the plan and outcome of a release in
 * which no job saved.
 */
import { BANDWIDTH_DEFINITION_ATTRIBUTE } from "./bandwidth-definition";
import type { BenchmarkReading, BenchmarkReject, BenchmarkRun } from "./benchmark-reading";
import { rejectMessage, type RejectCode } from "./reject-reasons";

export const RELEASE_LOG_NAME = "ckpt release log";

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

interface LogLine {
  line: number;
  raw: string;
}

interface JobEvent extends LogLine {
  atS: number;
}

interface PlannedSize {
  sizeMb: number | null;
  wave: number | null;
}

/** One release as the log tells it: its plan line, then its events and outcome. */
interface Release {
  number: number;
  at: string;
  rm: string;
  plan: LogLine;
  jobs: Map<string, PlannedSize>;
  signalled: Map<string, JobEvent>;
  ended: Map<string, JobEvent>;
  outcome: { line: LogLine; jobs: Map<string, string> } | null;
}

/** Outcomes whose checkpoint was written and finished. */
const SAVED = new Set(["saved", "saved-not-requeued"]);

export function readReleaseLog(text: string): BenchmarkReading {
  const rejects: BenchmarkReject[] = [];
  const reject = (record: LogLine, code: RejectCode, what: string) => rejects.push({ line: record.line, raw: record.raw, code, reason: rejectMessage.releaseLogLine(what) });
  const releases: Release[] = [];
  const latest = new Map<number, Release>();

  text.split("\n").forEach((rawLine, index) => {
    const raw = rawLine.replace(/\r$/, "");
    if (raw.trim() === "") return;
    const record: LogLine = { line: index + 1, raw };
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      reject(record, "malformed-result", "not a JSON object (each line of the log is one); was the line cut when the hook stopped?");
      return;
    }
    if (!isObject(value)) return void reject(record, "malformed-result", `a ${Array.isArray(value) ? "JSON array" : typeof value}, not a JSON object`);
    const number = value.release;
    if (!(typeof number === "number" && Number.isInteger(number) && number >= 1)) {
      return void reject(record, "malformed-result", `"release" must be the release's number (an integer ≥ 1), found ${JSON.stringify(number)}`);
    }
    if (value.type === "plan") {
      const plan = value.plan;
      if (!isObject(plan) || !Array.isArray(plan.jobs)) return void reject(record, "malformed-result", `release ${number}'s plan line has no "plan" with "jobs"`);
      const jobs = new Map<string, PlannedSize>();
      for (const job of plan.jobs as unknown[]) {
        if (!isObject(job) || typeof job.jobId !== "string") continue;
        jobs.set(job.jobId, {
          sizeMb: typeof job.sizeMb === "number" ? job.sizeMb : null,
          wave: typeof job.wave === "number" ? job.wave : null,
        });
      }
      const release: Release = { number, at: String(value.at ?? ""), rm: String(plan.rm ?? "unknown"), plan: record, jobs, signalled: new Map(), ended: new Map(), outcome: null };
      releases.push(release);
      latest.set(number, release);
      return;
    }
    const release = latest.get(number);
    if (release === undefined) return void reject(record, "unpaired-event", `a line of release ${number} before any plan line of it: the log's start is missing`);
    if (value.type === "outcome") {
      if (release.outcome !== null) return void reject(record, "duplicate-process", `a second outcome line for release ${number} (first at line ${release.outcome.line.line})`);
      const jobs = new Map<string, string>();
      for (const job of Array.isArray(value.jobs) ? (value.jobs as unknown[]) : []) {
        if (isObject(job) && typeof job.jobId === "string" && typeof job.outcome === "string") jobs.set(job.jobId, job.outcome);
      }
      release.outcome = { line: record, jobs };
      return;
    }
    if (value.type !== "event") return void reject(record, "malformed-result", `unknown line type ${JSON.stringify(value.type)}; expected plan, event or outcome`);
    const { jobId, event, atS } = value;
    if (typeof jobId !== "string" || !(typeof atS === "number" && Number.isFinite(atS))) {
      return void reject(record, "malformed-result", `an event needs "jobId" (a string) and "atS" (seconds, a number), found ${JSON.stringify(jobId)} and ${JSON.stringify(atS)}`);
    }
    if (event !== "signalled" && event !== "ended") {
      return void reject(record, "not-a-write", `a "${String(event)}" event of job ${jobId}: only a job's signal and end time its checkpoint`);
    }
    const events = event === "signalled" ? release.signalled : release.ended;
    const first = events.get(jobId);
    if (first !== undefined) return void reject(record, "duplicate-process", `job ${jobId} ${event} a second time in release ${number} (first at line ${first.line}); only the first counts`);
    events.set(jobId, { ...record, atS });
  });

  const runs: BenchmarkRun[] = [];
  for (const release of releases) runs.push(...releaseRuns(release, reject));
  rejects.sort((a, b) => a.line - b.line);
  return { detected: RELEASE_LOG_NAME, runs, rejects, warnings: [] };
}

/** The waves of one release that saved, as runs; its unusable lines rejected through `reject`. */
function releaseRuns(release: Release, reject: (record: LogLine, code: RejectCode, what: string) => void): BenchmarkRun[] {
  const name = `release ${release.number} (plan at line ${release.plan.line})`;
  const waves = new Map<string, { wave: number | null; jobs: { sizeMb: number; signal: JobEvent; end: JobEvent }[] }>();
  for (const [jobId, end] of release.ended) {
    if (!release.signalled.has(jobId)) reject(end, "unpaired-event", `job ${jobId} of ${name} ended without a signal line before it`);
  }
  for (const [jobId, signal] of release.signalled) {
    const end = release.ended.get(jobId);
    const both = (code: RejectCode, what: string) => {
      reject(signal, code, what);
      if (end !== undefined) reject(end, code, what);
    };
    if (end === undefined) {
      reject(signal, "unpaired-event", `job ${jobId} of ${name} was signalled but its end is not in the log (still running at the deadline, or the hook stopped)`);
      continue;
    }
    if (release.outcome === null) {
      both("unpaired-event", `${name} has no outcome line (the hook stopped before the end): whether job ${jobId} saved its checkpoint is not known`);
      continue;
    }
    const outcome = release.outcome.jobs.get(jobId);
    if (outcome === undefined || !SAVED.has(outcome)) {
      both("job-error", `job ${jobId} of ${name} ended with outcome ${outcome ?? "(none in the outcome line)"}: not a finished checkpoint`);
      continue;
    }
    const planned = release.jobs.get(jobId);
    if (planned === undefined || planned.sizeMb === null || !(planned.sizeMb > 0)) {
      both("non-positive-size", `job ${jobId} of ${name} has ${planned === undefined ? "no entry in the plan" : `size_mb ${planned.sizeMb}`}: its checkpoint's size (MB, > 0) is needed; give the sizes to ckpt release (a sidecar or --default-size-mb)`);
      continue;
    }
    if (!(end.atS > signal.atS)) {
      both(end.atS === signal.atS ? "zero-duration" : "end-before-start", `job ${jobId} of ${name} ended at ${end.atS} s, not after its signal at ${signal.atS} s`);
      continue;
    }
    // A job outside ScheduleCkpt's waves (wave null) was signalled on its own.
    const key = planned.wave === null ? `job ${jobId}` : `wave ${planned.wave}`;
    const group = waves.get(key) ?? { wave: planned.wave, jobs: [] };
    group.jobs.push({ sizeMb: planned.sizeMb, signal, end });
    waves.set(key, group);
  }
  const runs: BenchmarkRun[] = [];
  for (const [key, { wave, jobs }] of waves) {
    const sumSizeMb = jobs.reduce((sum, job) => sum + job.sizeMb, 0);
    const startS = Math.min(...jobs.map((job) => job.signal.atS));
    const endS = Math.max(...jobs.map((job) => job.end.atS));
    const firstSize = jobs[0]!.sizeMb;
    runs.push({
      runId: `release${release.number}@${release.at}/${wave === null ? key.replace(" ", "-") : `wave${wave}`}`,
      m: jobs.length,
      sumSizeMb,
      uniformSizeMb: jobs.every((job) => job.sizeMb === firstSize) ? firstSize : null,
      aggregatedBwMbPerS: sumSizeMb / (endS - startS),
      attributes: { [BANDWIDTH_DEFINITION_ATTRIBUTE]: "bytes-over-wall-time", benchmark: "ckpt-release", rm: release.rm },
      // Its jobs' signal and end lines; the release's first run also accounts for its plan and outcome lines.
      rows: 2 * jobs.length + (runs.length === 0 ? 2 : 0),
      line: Math.min(...jobs.map((job) => job.signal.line)),
    });
  }
  if (runs.length === 0) {
    const what = `${name}: no job of it saved a checkpoint whose signal and end the log has, so it measures nothing`;
    reject(release.plan, "not-a-write", what);
    if (release.outcome !== null) reject(release.outcome.line, "not-a-write", what);
  }
  return runs;
}
