/**
 * `squeue --json` of every Slurm JSON version, read to the same jobs: the fixtures are one
 * cluster scene recorded on Slurm 22.05.8 and written in each other version's shapes from
 * Slurm's sources (fixtures/squeue-json/README.md names the files and lines).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runningJobsOf } from "../../pipeline/release/slurm";
import { parseSqueueJson } from "../../pipeline/release/squeue-json";

const FIXTURES = join(__dirname, "fixtures/squeue-json");
const fixture = (name: string) => readFileSync(join(FIXTURES, `${name}.json`), "utf8");

/** Version file → (Slurm release, the plugin that printed it). */
const VERSIONS: [string, string, string][] = [
  ["21.08", "21.08.8-2", "openapi/v0.0.37"],
  ["22.05", "22.05.8", "openapi/v0.0.38"],
  ["23.02", "23.02.7", "data_parser/v0.0.39"],
  ["23.11", "23.11.10", "data_parser/v0.0.40"],
  ["24.05", "24.05.8", "data_parser/v0.0.41"],
  ["24.05-complex", "24.05.8", "data_parser/v0.0.41"],
  ["24.11", "24.11.7", "data_parser/v0.0.42"],
  ["25.05", "25.05.8", "data_parser/v0.0.43"],
  ["25.11", "25.11.7", "data_parser/v0.0.44"],
  ["26.05", "26.05.3", "data_parser/v0.0.45"],
];

// Slurm's MiB in MB (10^6 bytes): × 1.048576.
const mb = (mib: number) => mib * 1.048576;
const common = { name: expect.any(String), user: "root", uid: 0, lastCheckpointAtS: null, cannotSignal: null, cannotRequeue: null };
/** The scene (fixtures/squeue-json/README.md): every running job, as the hook addresses it. */
const SCENE = [
  { ...common, jobId: "16", sidecarId: "16", nodes: ["n1"], startedAtS: 1795837488, sizeMb: mb(300), sizeSource: "requested" },
  // The array's tasks by <array>_<task>: task 1 is job 18, task 2 carries the array's own id 17.
  { ...common, jobId: "17_1", sidecarId: "18", nodes: ["n2"], startedAtS: 1795837488, sizeMb: mb(100), sizeSource: "requested" },
  { ...common, jobId: "17_2", sidecarId: "17", nodes: ["n2"], startedAtS: 1795837488, sizeMb: mb(100), sizeSource: "requested" },
  { ...common, jobId: "19", sidecarId: "19", nodes: ["n1", "n2"], startedAtS: 1795837489, sizeMb: mb(400), sizeSource: "requested" },
  // The heterogeneous job: both components, one job.
  { ...common, jobId: "20", sidecarId: "20", nodes: ["n3", "n4"], startedAtS: 1795837490, sizeMb: mb(400), sizeSource: "requested" },
  { ...common, jobId: "22", sidecarId: "22", nodes: ["n3"], startedAtS: 1795837491, sizeMb: mb(300), sizeSource: "requested", cannotRequeue: "it may not be requeued (submitted with --no-requeue, or the cluster's JobRequeue=0)" },
  {
    ...common,
    jobId: "24",
    sidecarId: "24",
    nodes: ["n4"],
    startedAtS: 1795837491,
    sizeMb: mb(100),
    sizeSource: "requested",
    cannotSignal: "not a batch job (salloc or srun): it has no batch script to trap the signal",
    cannotRequeue: "not a batch job",
  },
];

describe("squeue --json of each Slurm JSON version", () => {
  for (const [file, release, plugin] of VERSIONS) {
    it(`${file}: the same running jobs, addressed as Slurm addresses them, sizes in MB`, () => {
      const listing = parseSqueueJson(fixture(file));
      expect([listing.slurmRelease, listing.dataParser]).toEqual([release, plugin]);
      // 9 records: 7 running jobs (the het job's two components make one) and a pending one.
      expect(listing.jobs).toHaveLength(9);
      const jobs = runningJobsOf(listing.jobs, ["n1", "n2", "n3", "n4"], null);
      expect(jobs).toEqual(SCENE);
      for (const [a, b] of jobs.map((j, i) => [j.sizeMb!, SCENE[i]!.sizeMb])) expect(a).toBeCloseTo(b!, 9);
    });
  }

  it("keeps the jobs on the released nodes only, a job on several nodes when any of them is released", () => {
    const records = parseSqueueJson(fixture("24.05")).jobs;
    expect(runningJobsOf(records, ["n4"], null).map((j) => j.jobId)).toEqual(["20", "24"]);
    expect(runningJobsOf(records, ["n2"], null).map((j) => j.jobId)).toEqual(["17_1", "17_2", "19"]);
  });

  it("assumes --default-size-mb only for a job whose memory Slurm does not know", () => {
    const text = JSON.parse(fixture("22.05"));
    const job = text.jobs[0];
    delete job.job_resources;
    job.memory_per_node = null;
    const [known, unknown] = [runningJobsOf(parseSqueueJson(fixture("22.05")).jobs, ["n1"], 50)[0]!, runningJobsOf(parseSqueueJson(JSON.stringify(text)).jobs, ["n1"], 50)[0]!];
    expect([known.sizeSource, unknown.sizeSource, unknown.sizeMb]).toEqual(["requested", "assumed", 50]);
    expect(runningJobsOf(parseSqueueJson(JSON.stringify(text)).jobs, ["n1"], null)[0]).toMatchObject({ sizeMb: null, sizeSource: "unknown" });
  });

  it("reads an unset start time as unknown, not as 1970", () => {
    const text = JSON.parse(fixture("23.11"));
    text.jobs[0].start_time = { set: false, infinite: false, number: 0 };
    expect(parseSqueueJson(JSON.stringify(text)).jobs[0]!.startTimeS).toBeNull();
    const old = JSON.parse(fixture("22.05"));
    old.jobs[0].start_time = 0;
    expect(parseSqueueJson(JSON.stringify(old)).jobs[0]!.startTimeS).toBeNull();
  });

  it("refuses a listing with errors, saying them, and passes its warnings on", () => {
    const text = JSON.parse(fixture("24.05"));
    text.errors = [{ description: "Unable to query jobs", error_number: 1007, error: "Protocol authentication error", source: "slurm_load_jobs()" }];
    expect(() => parseSqueueJson(JSON.stringify(text))).toThrow(
      "squeue --json (data_parser/v0.0.41) reported 1 error(s): Unable to query jobs, Protocol authentication error, slurm_load_jobs() — the job list cannot be trusted, nothing was done",
    );
    text.errors = [];
    text.warnings = [{ description: "data_parser/v0.0.41 is deprecated", source: "squeue" }];
    expect(parseSqueueJson(JSON.stringify(text)).warnings).toEqual(["squeue --json (data_parser/v0.0.41) warned: data_parser/v0.0.41 is deprecated, squeue"]);
  });

  it("refuses, loudly and naming the field, any shape it does not know, instead of seeing no job", () => {
    const with_ = (change: (doc: { jobs: Record<string, unknown>[] } & Record<string, unknown>) => void) => {
      const doc = JSON.parse(fixture("24.05"));
      change(doc);
      return () => parseSqueueJson(JSON.stringify(doc));
    };
    expect(with_((d) => (d.jobs[0]!.job_state = { current: ["RUNNING"] }))).toThrow(/jobs\[0\] \(job 16\): job_state is \{"current":\["RUNNING"\]\}, neither a state/);
    expect(with_((d) => (d.jobs[0]!.node_count = { value: 1 }))).toThrow(/job 16\): node_count is \{"value":1\}, not a number in any shape Slurm's JSON has had/);
    expect(with_((d) => (d.jobs[0]!.job_resources = { nodes: { allocation: { n1: {} } } }))).toThrow(/job_resources.nodes.allocation is not a list/);
    expect(with_((d) => delete d.jobs)).toThrow(/has no "jobs" list: a shape the hook does not know/);
    expect(with_((d) => (d.jobs[0]!.job_id = "16"))).toThrow(/jobs\[0\]: job_id is "16", not a number/);
    expect(with_((d) => (d.jobs[0]!.job_id = 0))).toThrow(/jobs\[0\]: job_id 0 is not a job id/);
    expect(() => parseSqueueJson("squeue: error: Invalid --json\n")).toThrow(/printed no JSON .* the hook needs Slurm ≥ 21.08/);
  });
});
