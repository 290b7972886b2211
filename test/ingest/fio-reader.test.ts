/**
 * fio 3.33's JSON output, from real runs (test/ingest/fixtures/README.md): per job, json+,
 * group reporting, time-based, json with normal output after it, groups one after the
 * other, --client mode, and a file with jobs that must be rejected. Reference values are the
 * files' own fields (io_bytes, runtime in ms), recomputed here from the parsed JSON.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ingestFiles } from "../../pipeline/ingest/ingest-files";
import { fioSizeBytes } from "../../pipeline/ingest/fio-json-reader";
import { expectClose } from "../helpers";

const fixture = (name: string) => join(__dirname, "fixtures", "fio", name);
interface Job {
  jobname: string;
  groupid: number;
  write: { io_bytes: number; runtime: number };
}
/** The JSON object of a fixture (after fio's text lines, before its normal output). */
function jobsOf(name: string): Job[] {
  const text = readFileSync(fixture(name), "utf8");
  const start = text.search(/^\{$/m);
  const end = text.search(/^\}$/m) + 1;
  const document = JSON.parse(text.slice(start, end));
  return (document.jobs ?? document.client_stats) as Job[];
}
const lineOf = (name: string) => readFileSync(fixture(name), "utf8").split("\n").flatMap((line, i) => (/"jobname" :/.test(line) ? [i + 1] : []));
const ownBandwidth = (job: Job) => job.write.io_bytes / 1e6 / (job.write.runtime / 1000);

describe("fio's JSON output", () => {
  it("per job: a group of 4 jobs is a run of 4 writers, its bandwidth the sum of theirs (the papers' definition)", async () => {
    for (const name of ["fio-3.33-4jobs.json", "fio-3.33-4jobs-jsonplus.json"]) {
      const result = await ingestFiles([fixture(name)]);
      const jobs = jobsOf(name);
      expect(result.observations.runs).toHaveLength(1);
      const [run] = result.observations.runs;
      expect(run).toMatchObject({ runId: "group0", m: 4, uniformSizeMb: 8.388608 });
      expectClose(run!.aggregatedBwMbPerS, jobs.reduce((s, j) => s + ownBandwidth(j), 0), 1e-12);
      expect(run!.attributes).toMatchObject({ bandwidth_definition: "sum-of-writers", benchmark: "fio", benchmark_version: "3.33", rw: "write", end_fsync: "1", size_is: "setting", client_mode: "no" });
      expect(result.counts).toEqual({ read: 4, accepted: 4, rejected: 0 });
    }
  });

  it("group_reporting: one entry for numjobs = 4 jobs, all bytes over the longest runtime", async () => {
    const name = "fio-3.33-4jobs-group-reporting.json";
    const result = await ingestFiles([fixture(name)]);
    const [job] = jobsOf(name);
    const [run] = result.observations.runs;
    expect(run).toMatchObject({ m: 4, uniformSizeMb: job!.write.io_bytes / 4 / 1e6 });
    expectClose(run!.aggregatedBwMbPerS, ownBandwidth(job!), 1e-12);
    expect(run!.attributes?.bandwidth_definition).toBe("bytes-over-wall-time");
    expect(result.warnings?.join("\n")).toMatch(/group report \(group_reporting\) of 4 jobs/);
    expect(result.counts).toEqual({ read: 1, accepted: 1, rejected: 0 });
  });

  it("time-based: the size is an outcome; the run is put at its writers' mean size, said", async () => {
    const name = "fio-3.33-time-based.json";
    const result = await ingestFiles([fixture(name)]);
    const jobs = jobsOf(name);
    const [run] = result.observations.runs;
    expect(jobs[0]!.write.io_bytes).not.toBe(jobs[1]!.write.io_bytes);
    expect(run).toMatchObject({ m: 2, uniformSizeMb: (jobs[0]!.write.io_bytes + jobs[1]!.write.io_bytes) / 2 / 1e6 });
    expect(run!.attributes?.size_is).toBe("outcome");
    expect(result.warnings?.join("\n")).toMatch(/limited by time \(runtime=1\): its size is an outcome, not a setting/);
  });

  it("json,normal: the normal output after the JSON object is skipped and said", async () => {
    const result = await ingestFiles([fixture("fio-3.33-json-and-normal.out")]);
    expect(result.observations.runs[0]).toMatchObject({ m: 2 });
    expect(result.warnings?.join("\n")).toMatch(/after fio's JSON object skipped \(its normal output/);
  });

  it("groups one after the other (stonewall) are runs of their own m", async () => {
    const name = "fio-3.33-scaling-groups.json";
    const result = await ingestFiles([fixture(name)]);
    expect(result.observations.runs.map((r) => [r.runId, r.m])).toEqual([["group0", 1], ["group1", 2], ["group2", 4]]);
    expect(result.observations.series[0]!.points.map((p) => p.m)).toEqual([1, 2, 4]);
    const group2 = jobsOf(name).filter((j) => j.groupid === 2);
    expectClose(result.observations.runs[2]!.aggregatedBwMbPerS, group2.reduce((s, j) => s + ownBandwidth(j), 0), 1e-12);
  });

  it("--client mode: the servers' jobs of one group are one run; 'All clients' is not a record", async () => {
    const name = "fio-3.33-client-2servers.json";
    const result = await ingestFiles([fixture(name)]);
    const jobs = jobsOf(name).filter((j) => j.jobname !== "All clients");
    expect(result.observations.runs).toHaveLength(1);
    expect(result.observations.runs[0]).toMatchObject({ m: 2, uniformSizeMb: 8.388608 });
    expectClose(result.observations.runs[0]!.aggregatedBwMbPerS, jobs.reduce((s, j) => s + ownBandwidth(j), 0), 1e-12);
    expect(result.observations.runs[0]!.attributes?.client_mode).toBe("yes");
    expect(result.counts).toEqual({ read: 2, accepted: 2, rejected: 0 });
    // The servers' lines before the JSON are skipped without a word: --client mode always prints them.
    expect(result.warnings ?? []).toEqual([]);
  });

  it("every job that cannot be used is rejected at its line with why; a run that lost a writer goes with it", async () => {
    const name = "fio-3.33-problems.json";
    const result = await ingestFiles([fixture(name)]);
    const at = lineOf(name);
    expect(result.observations.runs.map((r) => [r.runId, r.m])).toEqual([["group0", 2]]);
    expect(result.rejects.map((r) => [r.line, r.code])).toEqual([
      [at[2], "job-error"],
      [at[3], "run-size-mismatch"],
      [at[4], "not-a-write"],
      [at[5], "not-a-write"],
    ]);
    expect(result.rejects[0]!.reason).toMatch(/fio job "full" ended with error 28/);
    expect(result.rejects[1]!.reason).toMatch(/run "group1" has 2 writers of which 1 was rejected/);
    expect(result.rejects[2]!.reason).toMatch(/a fio job with rw=read/);
    expect(result.rejects[3]!.reason).toMatch(/a fio job with rw=rw/);
    expect(result.rejects[0]!.raw).toMatch(/^fio job "full" \(group 1\): write io_bytes=0/);
    expect(result.counts).toEqual({ read: 6, accepted: 2, rejected: 4 });
  });

  it("fio's size options are powers of 2 unless they say otherwise", () => {
    expect(fioSizeBytes("8M")).toBe(8 * 2 ** 20);
    expect(fioSizeBytes("1g")).toBe(2 ** 30);
    expect(fioSizeBytes("4096")).toBe(4096);
    expect(fioSizeBytes("2GiB")).toBe(2 * 2 ** 30);
    expect(fioSizeBytes("lots")).toBeNaN();
  });
});
