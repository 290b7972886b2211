/**
 * [BKT]'s run (docs/science.md §6.1) by value on tiny platforms written out by hand: speeds of
 * 1 MIPS (a slice of w million instructions takes w s), links in Mbit/s, availability from
 * written intervals, and the server's choice of job fixed (a stream that always draws 0: the
 * first job never handed out, else the first uncompleted one). Every makespan, bucket, waste
 * and count is computed by hand next to its test from the rules in bkt-run.ts's header: a
 * transfer takes size / link + latency, the server keeps only newer checkpoints, the first
 * result completes a job, and every client-second is in one bucket.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createLaw } from "../../../pipeline/place/laws/create-law";
import { parseLawString } from "../../../pipeline/place/laws/law-string";
import { createRandomStreams, type RandomStreams } from "../../../pipeline/simulate/engine/random-streams";
import { createJobBag } from "../../../pipeline/simulate/bkt/bkt-job-bag";
import type { BktPlatform } from "../../../pipeline/simulate/bkt/bkt-platform";
import { runBkt, stationaryStart, type BktRunResult } from "../../../pipeline/simulate/bkt/bkt-run";
import type { FailureLaw } from "../../../pipeline/place/laws/failure-law";
import { BKT_PAPER_PRESET, validateBktScenario, type BktPolicy, type BktScenario } from "../../../pipeline/simulate/bkt/bkt-scenario";
import { bktInputFiles, bktModel, serverMetrics, simulateBkt } from "../../../pipeline/simulate/bkt/bkt-simulator";
import { describeValue, planFlags, type CheckpointPolicy, type CheckpointPolicyInput } from "../../../pipeline/simulate/bkt/checkpoint-policy";
import { FLAT_SERVER } from "../flat-server";
import type { MeasuredServer } from "../../../pipeline/simulate/server/measured-server";
import type { AvailabilityTrace, NodeAvailability } from "../../../pipeline/simulate/traces/availability-trace";
import type { Random } from "../../../pipeline/shared/random";

const H = 3600;
const FOREVER = 1e9;
const dir = mkdtempSync(join(tmpdir(), "ckpt-bkt-values-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A stream that always draws 0 (the first of the candidates). */
const zero: Random = { next: () => 0, uniform: (low) => low, integer: (low) => low, normal: () => 0 };

/** The run's streams with the server's choices fixed to the first candidate. */
function firstChoice(): RandomStreams {
  const real = createRandomStreams(1);
  return { seed: 1, stream: (name, index) => (name === "server" ? zero : real.stream(name, index)), family: (name) => real.family(name) };
}

interface Client {
  speedMips?: number;
  linkMbps: number;
  lifetimeEndS?: number;
  /** Available intervals, s; default always. */
  up?: [number, number][];
}

/** A platform from clients and jobs (per job, per slice: work in MI and the image after it in Mbit). */
function platformOf(clients: Client[], jobs: { workMi: number[]; imageMbit: number[] }[]): BktPlatform {
  const sliceStart = new Int32Array(jobs.length + 1);
  jobs.forEach((job, j) => (sliceStart[j + 1] = sliceStart[j]! + job.workMi.length));
  return {
    speedMips: Float64Array.from(clients, (c) => c.speedMips ?? 1),
    linkMbps: Float64Array.from(clients, (c) => c.linkMbps),
    lifetimeEndS: Float64Array.from(clients, (c) => c.lifetimeEndS ?? Infinity),
    speedRedraws: 0,
    sliceStart,
    workMi: Float64Array.from(jobs.flatMap((j) => j.workMi)),
    imageMbit: Float64Array.from(jobs.flatMap((j) => j.imageMbit)),
  };
}

function node(intervals: [number, number][]): NodeAvailability {
  return { key: "n", starts: Float64Array.from(intervals, ([a]) => a), ends: Float64Array.from(intervals, ([, b]) => b), observedFromS: 0, observedToS: FOREVER };
}

const policyLaw = createLaw(parseLawString("exp:mean=2,unit=h").spec);

function run(
  over: Partial<BktScenario>,
  clients: Client[],
  jobs: { workMi: number[]; imageMbit: number[] }[],
  policy: BktPolicy | CheckpointPolicy = "every-slice",
  server: MeasuredServer | null = null,
  originS = 0,
  onAvailability?: (client: number, timeS: number, up: boolean) => void,
): BktRunResult {
  const scenario = validateBktScenario({ ...BKT_PAPER_PRESET, clients: clients.length, jobs: jobs.length, lifetime: "none", policies: ["none"], ...over });
  const shift = (intervals: [number, number][]) => intervals.map(([a, b]): [number, number] => [a + originS, b + originS]);
  const nodes = clients.map((c) => node(shift(c.up ?? [[0, FOREVER]])));
  return runBkt({
    scenario,
    platform: platformOf(clients, jobs),
    streams: firstChoice(),
    policy,
    server,
    trace: { trace: { nodes } as AvailabilityTrace, nodeOfClient: Int32Array.from(clients, (_, c) => c), originS },
    policyLaw,
    ...(onAvailability ? { onAvailability } : {}),
  });
}

/** Every client-second in one bucket: the buckets sum to clients × the run's length. */
function expectBucketsAddUp(r: BktRunResult, clients: number): void {
  const b = r.buckets;
  expect(b.computeS + b.uploadS + b.downloadS + b.waitS + b.idleS + b.unavailableS + b.departedS).toBeCloseTo(clients * r.endS, 6);
}

describe("the server's bag of jobs", () => {
  it("hands out jobs never handed out first, then duplicates of uncompleted ones, then nothing", () => {
    // Draws 0.5, 0, 0.9, 0.4: of [0, 1, 2] index 1 (job 1), then of [0, 2] job 0, then of [2] job 2; then duplicates.
    const draws = [0.5, 0, 0.9, 0.4, 0.7, 0];
    const bag = createJobBag(3, { ...zero, next: () => draws.shift()! });
    expect([bag.pick(), bag.pick(), bag.pick()]).toEqual([
      { job: 1, first: true },
      { job: 0, first: true },
      { job: 2, first: true },
    ]);
    bag.complete(0); // uncompleted [2, 1] (the last moves into the completed one's place)
    expect(bag.isCompleted(0)).toBe(true);
    expect(bag.isCompleted(1)).toBe(false);
    expect(bag.pick()).toEqual({ job: 2, first: false }); // 0.4 · 2 → index 0
    expect(bag.pick()).toEqual({ job: 1, first: false }); // 0.7 · 2 → index 1
    bag.complete(2);
    bag.complete(1);
    expect(bag.pick()).toBeNull();
  });

  /** Completing job 1 of [0, 1, 2] first moves the last, job 2, into its place: [0, 2]; draws 0 and 0.9 then pick index 0 (job 0) and index 1 (job 2). */
  it("removes a completed job from the middle of the uncompleted ones", () => {
    const draws = [0, 0, 0, 0, 0.9];
    const bag = createJobBag(3, { ...zero, next: () => draws.shift()! });
    expect([bag.pick(), bag.pick(), bag.pick()].map((p) => p!.job)).toEqual([0, 2, 1]);
    bag.complete(1);
    expect([bag.pick(), bag.pick()]).toEqual([
      { job: 0, first: false },
      { job: 2, first: false },
    ]);
  });

  it("keeps a checkpoint only when it is newer than the one it holds", () => {
    const bag = createJobBag(2, zero);
    expect(bag.checkpointedSlice(0)).toBe(0);
    expect(bag.offerCheckpoint(0, 2)).toBe(true);
    expect(bag.offerCheckpoint(0, 2)).toBe(false);
    expect(bag.offerCheckpoint(0, 1)).toBe(false);
    expect(bag.checkpointedSlice(0)).toBe(2);
    expect(bag.offerCheckpoint(0, 3)).toBe(true);
    expect(bag.checkpointedSlice(0)).toBe(3);
    expect(bag.checkpointedSlice(1)).toBe(0);
  });
});

describe("connections and the server's link", () => {
  /**
   * Two clients always up, two jobs of one 100 s slice, results of 10 Mbit at 1 Mbit/s, latency
   * 5 s, one connection. Both finish computing at 100 s; client 0 uploads 100–115 (10 / 1 + 5),
   * client 1 waits 100–115 and uploads 115–130: makespan 130 s. Client 0, back at 115, gets a
   * duplicate of client 1's job and computes 115–130 (cut by the run's end).
   * Overhead = uploads 30 + waits 15 = 45 s; compute 100 + 100 + 15 s.
   */
  it("queue first come first served and add the latency to each transfer", () => {
    const r = run({ latencySeconds: 5, server: { mbps: 1000, connections: 1 } }, [{ linkMbps: 1 }, { linkMbps: 1 }], [
      { workMi: [100], imageMbit: [10] },
      { workMi: [100], imageMbit: [10] },
    ]);
    expect(r.makespanS).toBeCloseTo(130, 9);
    expect(r.connectionWaitS).toBeCloseTo(15, 9);
    expect(r.checkpointOverheadS).toBeCloseTo(45, 9);
    expect(r.buckets).toMatchObject({ idleS: 0, downloadS: 0, unavailableS: 0, departedS: 0 });
    expect(r.buckets.computeS).toBeCloseTo(215, 9);
    expect(r.buckets.uploadS).toBeCloseTo(30, 9);
    expect(r).toMatchObject({ completedJobs: 2, unfinishedJobs: 0, resultsSent: 2, resultsDiscarded: 0, copies: 3, checkpointsTaken: 0, uploadedMbit: 20, lostComputationS: 0 });
    expectBucketsAddUp(r, 2);
  });

  /** With two connections both upload at once: 100–115, makespan 115 s, no wait. */
  it("let transfers run side by side up to the connections", () => {
    const r = run({ latencySeconds: 5, server: { mbps: 1000, connections: 2 } }, [{ linkMbps: 1 }, { linkMbps: 1 }], [
      { workMi: [100], imageMbit: [10] },
      { workMi: [100], imageMbit: [10] },
    ]);
    expect(r.makespanS).toBeCloseTo(115, 9);
    expect(r.connectionWaitS).toBe(0);
  });

  /**
   * A 2 Mbit/s server link and two 2 Mbit/s clients uploading 10 Mbit at 100 s: the second start
   * would exceed the server, so both share it at 1 Mbit/s: both end at 110 s (alone: 105).
   */
  it("share a binding server link equally", () => {
    const r = run({ server: { mbps: 2, connections: 10 } }, [{ linkMbps: 2 }, { linkMbps: 2 }], [
      { workMi: [100], imageMbit: [10] },
      { workMi: [100], imageMbit: [10] },
    ]);
    expect(r.makespanS).toBeCloseTo(110, 9);
    expect(r.buckets.uploadS).toBeCloseTo(20, 9);
  });

  /**
   * Links 0.5 and 4 Mbit/s on a 2 Mbit/s server: max-min, the slow one keeps its 0.5 and the
   * other gets the 1.5 left: client 1's 10 Mbit end at 100 + 10/1.5 s; client 0 then runs alone
   * at its link, 0.5 Mbit/s all along: ends at 100 + 20 s. Uploads: 20 + 20/3 s.
   */
  it("leave a slow link's unused share to the others (max-min)", () => {
    const r = run({ server: { mbps: 2, connections: 10 } }, [{ linkMbps: 0.5 }, { linkMbps: 4 }], [
      { workMi: [100], imageMbit: [10] },
      { workMi: [100], imageMbit: [10] },
    ]);
    expect(r.makespanS).toBeCloseTo(120, 9);
    expect(r.buckets.uploadS).toBeCloseTo(20 + 10 / 1.5, 9);
  });

  /**
   * A measured server of 2 MB/s whatever the load (fluid-server.ts): two 16 Mbit (2 MB) results
   * at 100 s on 80 Mbit/s (10 MB/s) links share it, 1 MB/s each: 2 s, makespan 102 s. The server
   * was busy 2 s at its full bandwidth, and each transfer waited 2 − 2/10 = 1.8 s beyond its link.
   */
  it("a measured server shares its bw(m, V) among the transfers in progress", () => {
    const r = run({}, [{ linkMbps: 80 }, { linkMbps: 80 }], [
      { workMi: [100], imageMbit: [16] },
      { workMi: [100], imageMbit: [16] },
    ], "every-slice", FLAT_SERVER);
    expect(r.makespanS).toBeCloseTo(102, 9);
    expect(r.server).toMatchObject({ transfers: 2, completed: 2, interrupted: 0, maxConcurrent: 2 });
    expect(r.server!.busyS).toBeCloseTo(2, 9);
    expect(r.server!.waitS).toBeCloseTo(2 * 1.8, 9);
    expect(r.server!.deliveredMb).toBeCloseTo(4, 9);
    // Events: the two requests at 0, the two compute ends at 100, the server's one completion
    // event at 102 (the first start's, at 101, was replaced when the second started): 5.
    expect(r.events).toBe(5);
    expect(serverMetrics(r.server!, r.endS)).toEqual({
      serverTransfers: 2,
      serverTransfersOutsideDomain: 0,
      serverBusyFraction: r.server!.busyS / 102,
      serverUtilisation: r.server!.deliveredMb / r.server!.capacityMb,
      serverWaitH: r.server!.waitS / H,
    });
    expect(serverMetrics({ ...r.server!, capacityMb: 0 }, 0)).toMatchObject({ serverBusyFraction: 0, serverUtilisation: 0 });
  });
});


describe("failures", () => {
  const twoSlices = { workMi: [100, 100], imageMbit: [10, 10] };

  /**
   * Client 0 leaves for good at 150 s: slice 1 0–100, its checkpoint 100–110 (accepted),
   * slice 2 from 110: 40 s lost. Client 1 is away until 1000 s, then gets a duplicate of the job
   * from its checkpoint: download 1000–1010, slice 2 1010–1110, result 1110–1120: makespan 1120 s,
   * finished by a duplicate. Client 0 departed 150–1120, client 1 unavailable 0–1000.
   */
  it("the end of a lifetime kills the copy: its work since the last accepted checkpoint is lost", () => {
    const r = run({}, [{ linkMbps: 1, lifetimeEndS: 150 }, { linkMbps: 1, up: [[1000, FOREVER]] }], [twoSlices]);
    expect(r.makespanS).toBeCloseTo(1120, 9);
    expect(r.lostComputationS).toBeCloseTo(40, 9);
    expect(r).toMatchObject({ failuresPermanent: 1, failuresTransient: 0, copies: 2, jobsFinishedByDuplicate: 1, checkpointsTaken: 1, checkpointsAccepted: 1, downloadedMbit: 10, uploadedMbit: 20 });
    expect(r.buckets.departedS).toBeCloseTo(1120 - 150, 9);
    expect(r.buckets.unavailableS).toBeCloseTo(1000, 9);
    expect(r.buckets.computeS).toBeCloseTo(240, 9);
    expect(r.downloadS).toBeCloseTo(10, 9);
    expect(r.checkpointOverheadS).toBeCloseTo(30, 9);
    expectBucketsAddUp(r, 2);
  });

  /**
   * Suspend: client 0 is away 105–200 s, in the middle of its checkpoint's upload (100–110). The
   * transfer starts again from zero on return, 200–210 (accepted), slice 2 210–310, result
   * 310–320: makespan 320 s, nothing lost, uploads 5 + 10 + 10 s, the failure counted.
   */
  it("suspend: an upload a failure interrupts starts again on return", () => {
    const r = run({ transient: "suspend" }, [{ linkMbps: 1, up: [[0, 105], [200, FOREVER]] }], [twoSlices]);
    expect(r.makespanS).toBeCloseTo(320, 9);
    expect(r.lostComputationS).toBe(0);
    expect(r.buckets.uploadS).toBeCloseTo(25, 9);
    expect(r.buckets.unavailableS).toBeCloseTo(95, 9);
    expect(r).toMatchObject({ failuresTransient: 1, checkpointsAccepted: 1, uploadedMbit: 20, copies: 1 });
    expectBucketsAddUp(r, 1);
  });

  /**
   * Suspend, down during slice 2 (110–210) at 150 s and back at 400 s: 60 s of the slice are
   * left, done at 460; result 460–470. Nothing lost.
   */
  it("suspend: a computation resumes where it stopped", () => {
    const r = run({ transient: "suspend" }, [{ linkMbps: 1, up: [[0, 150], [400, FOREVER]] }], [twoSlices]);
    expect(r.makespanS).toBeCloseTo(470, 9);
    expect(r.lostComputationS).toBe(0);
    expect(r.buckets.computeS).toBeCloseTo(200, 9);
  });

  /**
   * Abort, down at 150 s (in slice 2, 110–210) and back at 400 s: 40 s lost; the client asks for
   * a job on return and gets the same one again, a duplicate (it was handed out), from its
   * checkpoint: download 400–410, slice 2 410–510, result 510–520. Under "none" nothing was saved:
   * 150 s lost, slices 400–600, result 600–610.
   */
  it("abort: the copy dies and the client asks for a new job on return", () => {
    const r = run({ transient: "abort" }, [{ linkMbps: 1, up: [[0, 150], [400, FOREVER]] }], [twoSlices]);
    expect(r.makespanS).toBeCloseTo(520, 9);
    expect(r.lostComputationS).toBeCloseTo(40, 9);
    expect(r).toMatchObject({ failuresTransient: 1, copies: 2, jobsFinishedByDuplicate: 1, downloadedMbit: 10 });
    const none = run({ transient: "abort" }, [{ linkMbps: 1, up: [[0, 150], [400, FOREVER]] }], [twoSlices], "none");
    expect(none.makespanS).toBeCloseTo(610, 9);
    expect(none.lostComputationS).toBeCloseTo(150, 9);
    expect(none).toMatchObject({ checkpointsTaken: 0, downloadedMbit: 0, uploadedMbit: 10 });
  });

  /** Abort, down at 105 s in the checkpoint's upload (100–110): the 100 s of slice 1, not yet saved, are lost. */
  it("abort during an upload loses the work the checkpoint was saving", () => {
    const r = run({ transient: "abort", downloadOnRestart: true }, [{ linkMbps: 1, up: [[0, 105], [200, FOREVER]] }], [twoSlices]);
    expect(r.lostComputationS).toBeCloseTo(100, 9);
    // Back at 200: the job again from scratch (no checkpoint held): 200–300, 300–310, 310–410, 410–420.
    expect(r.makespanS).toBeCloseTo(420, 9);
  });

  /** With no client left the run stops: the job is unfinished and the makespan null. */
  it("stops when every client has departed, the job unfinished", () => {
    const r = run({}, [{ linkMbps: 1, lifetimeEndS: 150 }], [twoSlices]);
    expect(r).toMatchObject({ makespanS: null, unfinishedJobs: 1, completedJobs: 0, failuresPermanent: 1 });
    expect(r.endS).toBeCloseTo(150, 9);
    expect(r.lostComputationS).toBeCloseTo(40, 9);
  });
});

describe("copies of jobs already completed", () => {
  /**
   * Job 0: two slices of 100 s; job 1: one slice of 1000 s; images 10 Mbit at 1 Mbit/s.
   * Client 0 (1 MIPS) gets job 0, client 1 (1 MIPS) job 1, client 2 (0.5 MIPS) a duplicate of
   * job 0. Client 0: slice 1 0–100, checkpoint 100–110, slice 2 110–210, result 210–220 (job 0
   * done), then a duplicate of job 1 from 220. Client 2: slice 1 0–200, its checkpoint 200–210
   * is outdated (the server holds slice 1 already), slice 2 210–410 — spent on a completed job:
   * 200 s of duplicate work — and its result 410–420 is discarded ("run-on"). Client 1 ends job 1
   * at 1000–1010: makespan 1010 s. "abort-on-contact": client 2 drops the copy at 410 instead of
   * uploading the result.
   */
  it("run on and have their result discarded, or stop at their next upload", () => {
    const clients = [{ linkMbps: 1 }, { linkMbps: 1 }, { linkMbps: 1, speedMips: 0.5 }];
    const jobs = [
      { workMi: [100, 100], imageMbit: [10, 10] },
      { workMi: [1000], imageMbit: [10] },
    ];
    const runOn = run({ staleCopies: "run-on" }, clients, jobs);
    expect(runOn.makespanS).toBeCloseTo(1010, 9);
    expect(runOn.duplicateWorkS).toBeCloseTo(200, 9);
    expect(runOn).toMatchObject({ checkpointsTaken: 2, checkpointsAccepted: 1, checkpointsOutdated: 1, resultsSent: 3, resultsDiscarded: 1, copies: 5, jobsFinishedByDuplicate: 0, uploadedMbit: 50 });
    expect(runOn).toMatchObject({ sliceBoundaries: 2, checkpointDecisions: 2 });
    const abortOnContact = run({ staleCopies: "abort-on-contact" }, clients, jobs);
    expect(abortOnContact.makespanS).toBeCloseTo(1010, 9);
    expect(abortOnContact.duplicateWorkS).toBeCloseTo(200, 9);
    expect(abortOnContact).toMatchObject({ resultsSent: 2, resultsDiscarded: 0, copies: 5, uploadedMbit: 40 });
    expectBucketsAddUp(runOn, 3);
    expectBucketsAddUp(abortOnContact, 3);
  });

  /** "none" checkpoints only the last slice (its result): one boundary reached by each two-slice copy, none checkpointed. */
  it("count the boundaries a plan passes without checkpointing", () => {
    const r = run({}, [{ linkMbps: 1 }], [{ workMi: [100, 100, 100], imageMbit: [10, 10, 10] }], "none");
    expect(r).toMatchObject({ sliceBoundaries: 2, checkpointDecisions: 0, checkpointsTaken: 0 });
    expect(r.makespanS).toBeCloseTo(310, 9);
  });

  /** One client, two jobs: after its first result it gets the second; after the second nothing is left and the run ends at 420 s. */
  it("a client asks again after each result", () => {
    const r = run({}, [{ linkMbps: 1 }], [
      { workMi: [200], imageMbit: [10] },
      { workMi: [200], imageMbit: [10] },
    ]);
    expect(r.makespanS).toBeCloseTo(420, 9);
    expect(r).toMatchObject({ copies: 2, completedJobs: 2 });
  });
});

describe("what a policy returns", () => {
  const copy = () => "a copy of job 3 starting after slice 0 at t = 0 s";
  it("becomes flags over the copy's slices, the last always set", () => {
    expect([...planFlags([1, 3], 4, "policy x", copy)]).toEqual([1, 0, 1, 1]);
    expect([...planFlags([], 1, "policy x", copy)]).toEqual([1]);
  });

  it("is refused with the policy, the copy and what it returned", () => {
    expect(() => planFlags("no", 2, 'policy "x"', copy)).toThrow('policy "x" returned "no" for a copy of job 3 starting after slice 0 at t = 0 s (2 slices): plan(input) must return an array of slice indices (number[]), synchronously');
    expect(() => planFlags([1.5], 1, "p", copy)).toThrow("p returned [1.5] for a copy of job 3 starting after slice 0 at t = 0 s (1 slice): 1.5 is not an integer index");
    expect(() => planFlags([0], 2, "p", copy)).toThrow("0 is not a slice: indices are 1-based, in 1..2");
    expect(() => planFlags([3], 2, "p", copy)).toThrow("3 is not a slice: indices are 1-based, in 1..2");
    expect(() => planFlags(["1"], 2, "p", copy)).toThrow('"1" is not an integer index');
  });

  it("is shown as JSON, or by its kind, in at most 200 characters", () => {
    expect(describeValue(undefined)).toBe("undefined");
    expect(describeValue(() => 1)).toBe("a function");
    expect(describeValue(3n)).toBe("3n");
    expect(describeValue(Infinity)).toBe("Infinity");
    expect(describeValue(NaN)).toBe("NaN");
    expect(describeValue(Promise.resolve(1))).toBe("a Promise");
    expect(describeValue({ then: () => 1 })).toBe("a Promise");
    expect(describeValue([1, 2])).toBe("[1,2]");
    expect(describeValue(null)).toBe("null");
    expect(describeValue({ a: 1 })).toBe('{"a":1}');
    expect(describeValue(Symbol("s"))).toBe("Symbol(s)");
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(describeValue(cyclic)).toBe("[object Object]");
    const long = describeValue("x".repeat(300));
    expect(long).toHaveLength(198);
    expect(long.endsWith("xx…")).toBe(true);
    expect(describeValue("x".repeat(198))).toHaveLength(200);
  });
});

describe("the simulator's summary per policy and a sweep's cell", () => {
  /** One node available 0–86400 s, followed by every client. */
  function alwaysUp(): string {
    const path = join(dir, "always.tab");
    const header = "# event_id component_id node_id platform_id node_name event_type event_start_time event_stop_time event_end_reason";
    writeFileSync(path, [header, "0 0 1 0 n1 1 0 86400 NULL", ""].join("\n"));
    return path;
  }
  /**
   * Two clients, two jobs of two slices of 1771 s · 1771 MI (1 h at the preset's mean speed, sd
   * 0), 36 Mbit images on 1 Mbit/s links (36 s): "none" computes 2 h and uploads its result,
   * makespan 7236 s, overhead 36 s per client; "every-slice" also uploads the first checkpoint,
   * makespan 7272 s, overhead 72 s per client. Totals are twice one client's; the average waste
   * is per client; the paired difference every-slice − none is 36 s.
   */
  const scenario = () =>
    validateBktScenario({
      ...BKT_PAPER_PRESET,
      clients: 2,
      jobs: 2,
      slicesPerJob: [2, 2],
      sliceHours: [1, 1],
      speedMips: { mean: 1771, sd: 0 },
      hostMbps: [1, 1],
      checkpointMbit: [36, 36],
      lifetime: "none",
      trace: alwaysUp(),
      policies: ["none", "every-slice"],
      replications: 2,
    });

  it("gives the waste per client, the Mbit sent, the share of boundaries checkpointed and the paired difference", async () => {
    const report = await simulateBkt(scenario());
    const none = report.policies.none!;
    const every = report.policies["every-slice"]!;
    expect(none.makespanH.mean * H).toBeCloseTo(7236, 6);
    expect(every.makespanH.mean * H).toBeCloseTo(7272, 6);
    expect(none.averageWasteH.mean * H).toBeCloseTo(36, 6);
    expect(every.averageWasteH.mean * H).toBeCloseTo(72, 6);
    expect(every.checkpointOverheadH.mean * H).toBeCloseTo(144, 6);
    expect(every.sentMbit.mean).toBe(4 * 36);
    expect(every.uploadedMbit.mean).toBe(4 * 36);
    expect(every.downloadedMbit.mean).toBe(0);
    expect(none.sentMbit.mean).toBe(2 * 36);
    expect(every.checkpointShare.mean).toBe(1);
    expect(none.checkpointShare.mean).toBe(0);
    expect(every.checkpointsTaken.mean).toBe(2);
    expect(every.checkpointsAccepted.mean).toBe(2);
    expect(every.copies.mean).toBe(2);
    expect(every.connectionWaitH.mean).toBe(0);
    expect(every.duplicateWorkH.mean).toBe(0);
    expect(every.lostComputationH.mean).toBe(0);
    expect(every.failures).toMatchObject({ transient: { mean: 0 }, permanent: { mean: 0 } });
    expect(every.unfinishedRuns).toBe(0);
    expect(every.events.mean).toBeGreaterThan(0);
    expect(report.events).toBe(report.runs.reduce((s, r) => s + r.events, 0));
    expect(report.pairedMakespanDifferenceH["every-slice − none"]!.mean * H).toBeCloseTo(36, 6);
    expect(report.pairedMakespanDifferenceH["every-slice − none"]!.n).toBe(2);
    expect(report.seeds).toEqual([1, 2]);
    expect(report.trace).toMatchObject({ nodes: 1, startDays: 0, nodesObservedAtStart: 1 });
    expect(report.warnings[0]).toBe("1 nodes of the trace are observed at day 0 for 2 clients: nodes are reused cyclically (a seeded permutation)");
  });

  it("keeps each policy's metrics in a sweep's cell", async () => {
    const cell = await bktModel.run(scenario() as unknown as Record<string, unknown>, 1);
    const every = cell.policies["every-slice"]!;
    expect(every.makespanH).toBeCloseTo(7272 / H, 9);
    expect(every.averageWasteH).toBeCloseTo(72 / H, 9);
    expect(every.checkpointOverheadH).toBeCloseTo(144 / H, 9);
    expect(every).toMatchObject({ lostComputationH: 0, connectionWaitH: 0, checkpointsTaken: 2, sliceBoundaries: 2, checkpointShare: 1, checkpointsAccepted: 2, copies: 2, failuresTransient: 0, failuresPermanent: 0, sentMbit: 144, unfinishedJobs: 0 });
    expect(cell.policies.none).toMatchObject({ checkpointShare: 0, sentMbit: 72 });
    expect(cell.metrics.events).toBe(cell.events);
    expect(Object.keys(every)).not.toContain("serverTransfers");
  });

  /** A 1-hour horizon stops the runs before their 2 h of compute: no makespan, every job unfinished, said in a warning per run. */
  it("counts runs the horizon stopped and says so", async () => {
    const report = await simulateBkt({ ...scenario(), horizonHours: 1, replications: 1, policies: ["none"] });
    expect(report.policies.none!.unfinishedRuns).toBe(1);
    expect(report.policies.none!.makespanH.n).toBe(0);
    expect(report.warnings).toContain("seed 1, none: 2 job(s) unfinished at 1.0 h (horizon 1 h, or every client departed)");
    // Runs without a makespan have no paired difference.
    const both = await simulateBkt({ ...scenario(), horizonHours: 1, replications: 1 });
    expect(both.pairedMakespanDifferenceH["every-slice − none"]!.n).toBe(0);
    const cell = await bktModel.run({ ...scenario(), horizonHours: 1, policies: ["none"] } as unknown as Record<string, unknown>, 1);
    expect(cell.policies.none!.makespanH).toBeNaN();
    expect(cell.policies.none!.unfinishedJobs).toBe(2);
  });

  /**
   * With the measured 2 MB/s server: the 36 Mbit (4.5 MB) transfers on 1 Mbit/s (0.125 MB/s)
   * links are held by the links, the server never binds: the same makespans, the server busy
   * while a transfer runs and waited for by none.
   */
  it("summarises what a measured server did per policy", async () => {
    const s = { ...scenario(), server: { model: "paper", connections: 100, outsideDomain: "clamp", volume: "whole" } } as BktScenario;
    const report = await simulateBkt(s, undefined, undefined, { server: FLAT_SERVER });
    const every = report.policies["every-slice"]!;
    expect(every.makespanH.mean * H).toBeCloseTo(7272, 6);
    expect(every.server!.transfers.mean).toBe(4);
    expect(every.server!.transfersOutsideDomain.mean).toBe(0);
    expect(every.server!.waitH.mean).toBeCloseTo(0, 9);
    expect(every.server!.maxConcurrent.mean).toBe(2);
    // Busy 3600–3636 and 7236–7272 s of 7272: both clients transfer at once.
    expect(every.server!.busyFraction.mean).toBeCloseTo(72 / 7272, 9);
    // 2 × 0.125 MB/s used of 2 MB/s while busy.
    expect(every.server!.utilisation.mean).toBeCloseTo(0.25 / 2, 9);
    expect(report.server).toMatchObject({ file: "flat" });
  });

  it("names the files a scenario reads", () => {
    expect(bktInputFiles({ server: { model: "m.json" }, policyModules: ["a.mjs"], trace: "t.tab" })).toEqual(["m.json", "a.mjs", "t.tab"]);
    expect(bktInputFiles({ server: { model: "paper" }, trace: null })).toEqual([]);
    expect(bktInputFiles({})).toEqual([]);
  });

  /** Progress per run (at its start, and once at the end), the wall-clock timer per run, and the sweep model's message per run. */
  it("tells the progress of each run, its time apart, and checks a sweep's parameters", async () => {
    const states: string[] = [];
    const timed: string[] = [];
    const report = await simulateBkt(scenario(), (p) => p.events === 0 && states.push(`${p.run}/${p.runs} ${p.seed} ${p.policy} ${p.completedJobs}/${p.jobs}`), (policy, seed, seconds, events) => timed.push(`${policy} ${seed} ${seconds >= 0} ${events}`));
    expect(states).toEqual(["0/4 1 none 0/2", "1/4 1 every-slice 0/2", "2/4 2 none 0/2", "3/4 2 every-slice 0/2", "4/4 2 every-slice 2/2"]);
    expect(timed).toEqual(report.runs.map((r) => `${r.policy} ${r.seed} true ${r.events}`));
    // The trace's one available interval, 86 400 s, as an empirical law: its linear ECDF from 0 has mean 43 200 s.
    expect(report.policyLaw).toBe(`empirical(1 durations (${join(dir, "always.tab")}), linear ECDF, mean 43200 s; sample mean 86400 s)`);
    const messages: string[] = [];
    await bktModel.run(scenario() as unknown as Record<string, unknown>, 3, (m) => messages.push(m));
    expect(messages).toEqual(["seed 3, policy none…", "seed 3, policy every-slice…"]);
    expect(() => bktModel.validate({ ...BKT_PAPER_PRESET, replications: 0 })).not.toThrow();
    expect(() => bktModel.validate({ ...BKT_PAPER_PRESET, clients: 0 })).toThrow(/clients must be an integer/);
  });
});

describe("hosts that follow a trace", () => {
  /**
   * Node 1 is recorded on days 0–1, nodes 2 and 3 on days 2–3. At day 1.5 none is observed: the
   * refusal names day 2, when the most (2) are. At day 2 two nodes for three clients: reused,
   * with the same hint absent (no day has more). Beyond the trace's 3 days: refused.
   */
  function staggered(): string {
    const path = join(dir, "staggered.tab");
    const header = "# event_id component_id node_id platform_id node_name event_type event_start_time event_stop_time event_end_reason";
    const d = 86400;
    writeFileSync(path, [header, `0 0 1 0 n1 1 0 ${d} NULL`, `1 0 2 0 n2 1 ${2 * d} ${3 * d} NULL`, `2 0 3 0 n3 1 ${2 * d} ${3 * d} NULL`, ""].join("\n"));
    return path;
  }
  const s = (traceStartDays: number) =>
    validateBktScenario({ ...BKT_PAPER_PRESET, clients: 3, jobs: 1, slicesPerJob: [1, 1], sliceHours: [1, 1], checkpointMbit: [1, 1], lifetime: "none", trace: staggered(), traceStartDays, policies: ["none"] });

  it("start where nodes are observed, and say where most are", async () => {
    await expect(simulateBkt(s(1.5))).rejects.toThrow(/staggered\.tab: no node is observed at day 1\.5 of the trace \(traceStartDays\); the most are observed at day 2 \(2 nodes\): --trace-start-days 2$/);
    // Node 1 is observed up to day 1, not at it.
    await expect(simulateBkt(s(1))).rejects.toThrow(/no node is observed at day 1 of the trace \(traceStartDays\); the most are observed at day 2 \(2 nodes\)/);
    // Two nodes for two clients: no reuse, no warning.
    expect((await simulateBkt({ ...s(2), clients: 2 })).warnings).toEqual([]);
    await expect(simulateBkt(s(3))).rejects.toThrow(/traceStartDays: .*staggered\.tab spans 3\.0 days; start inside it \(traceStartDays < that\)/);
    const report = await simulateBkt(s(2));
    expect(report.trace).toMatchObject({ nodes: 3, startDays: 2, nodesObservedAtStart: 2 });
    expect(report.warnings[0]).toBe("2 nodes of the trace are observed at day 2 for 3 clients: nodes are reused cyclically (a seeded permutation)");
    // One slice of 1 h at the mean speed on a host up from its start: done at 3600 s + the 1 Mbit result.
    expect(report.runs[0]!.completedJobs).toBe(1);
    const atDay0 = await simulateBkt(s(0));
    expect(atDay0.warnings[0]).toBe("1 nodes of the trace are observed at day 0 for 3 clients: nodes are reused cyclically (a seeded permutation); the most are observed at day 2 (2 nodes): --trace-start-days 2");
  });
});

describe("what a policy is given for each copy (checkpoint-policy.ts)", () => {
  /**
   * The lifetime case above with latency 1 s and client 1 at 0.5 MIPS on a 2 Mbit/s link, under
   * a policy of our own that checkpoints after the first slice and records its inputs. Copy 1
   * (client 0, from scratch): slices of 100 s, checkpoints of 10 / 1 + 1 = 11 s, no download.
   * Copy 2 (client 1, from the checkpoint after slice 1): the one slice left, 200 s, its
   * checkpoint 10 / 2 + 1 = 6 s, and the download of the checkpoint, 6 s. Makespan: client 1
   * back at 1000 downloads 1000–1006, computes 1006–1206 and uploads 1206–1212.
   */
  it("sees each copy's remaining slices, checkpoint costs and download on its host", () => {
    const seen: CheckpointPolicyInput[] = [];
    const mine: CheckpointPolicy = { name: "mine", plan: (input) => (seen.push(input), [1]) };
    const clients = [{ linkMbps: 1, lifetimeEndS: 150 }, { linkMbps: 2, speedMips: 0.5, up: [[1000, FOREVER]] as [number, number][] }];
    const r = run({ latencySeconds: 1 }, clients, [{ workMi: [100, 100], imageMbit: [10, 10] }], mine);
    expect(r.policy).toBe("mine");
    expect(seen.map(({ sliceSeconds, checkpointSeconds, downloadSeconds }) => ({ sliceSeconds, checkpointSeconds, downloadSeconds }))).toEqual([
      { sliceSeconds: [100, 100], checkpointSeconds: [11, 11], downloadSeconds: 0 },
      { sliceSeconds: [200], checkpointSeconds: [6], downloadSeconds: 6 },
    ]);
    expect(seen[0]!.law.mean).toBeCloseTo(2 * H, 6);
    // The run's law, exponential of mean 2 h: P(T > 1 h) = e^−0.5.
    expect(seen[0]!.law.survival(H)).toBeCloseTo(Math.exp(-0.5), 12);
    expect(seen[0]!.law.cdf(H)).toBeCloseTo(1 - Math.exp(-0.5), 12);
    expect(r.makespanS).toBeCloseTo(1212, 9);
    // Lost: slice 2 of client 0 from 111 (slice 1 0–100, its checkpoint 100–111) to 150.
    expect(r.lostComputationS).toBeCloseTo(39, 9);
  });

  it("stops the run, naming the policy and the copy, when it throws", () => {
    const broken: CheckpointPolicy = { name: "broken", plan: () => { throw new Error("cannot plan"); } };
    expect(() => run({}, [{ linkMbps: 1 }], [{ workMi: [100], imageMbit: [10] }], broken)).toThrow('policy "broken" cannot plan — planning a copy of job 0 starting after slice 0 at t = 0 s');
    expect(() => run({}, [{ linkMbps: 1 }], [{ workMi: [100], imageMbit: [10] }], { name: "odd", plan: () => 5 as unknown as number[] })).toThrow('policy "odd" returned 5 for a copy of job 0 starting after slice 0 at t = 0 s (1 slice): plan(input) must return an array of slice indices (number[]), synchronously');
    // The policy's own error is kept as the cause.
    const thrown = (() => {
      try {
        run({}, [{ linkMbps: 1 }], [{ workMi: [100], imageMbit: [10] }], broken);
      } catch (error) {
        return error as Error;
      }
    })();
    expect((thrown!.cause as Error).message).toBe("cannot plan");
    expect(() => run({}, [{ linkMbps: 1 }], [{ workMi: [100], imageMbit: [10] }], { name: "odd", plan: () => [5] })).toThrow('policy "odd" returned [5] for a copy of job 0 starting after slice 0 at t = 0 s (1 slice): 5 is not a slice');
  });
});

describe("a trace's instant t = 0", () => {
  /** The same hosts with the trace read from 10 000 s on (every interval shifted by it): the same run, and the same availability changes told. */
  it("is where the trace is read from", () => {
    const clients = [{ linkMbps: 1, lifetimeEndS: 150 }, { linkMbps: 1, up: [[1000, FOREVER]] as [number, number][] }];
    const job = [{ workMi: [100, 100], imageMbit: [10, 10] }];
    const told: string[][] = [[], []];
    const runs = [0, 10_000].map((originS, i) => run({}, clients, job, "every-slice", null, originS, (c, t, up) => told[i]!.push(`${c} ${t} ${up}`)));
    for (const r of runs) {
      expect(r.makespanS).toBeCloseTo(1120, 9);
      expect(r.buckets.unavailableS).toBeCloseTo(1000, 9);
    }
    expect(told[0]).toEqual(["1 1000 true"]);
    expect(told[1]).toEqual(told[0]);
  });
});


describe("the mean's interval as the simulators report it", () => {
  /** [1, 3]: mean 2, sd √2, half-width t(0.975, 1) · √2 / √2 = 12.7062 (the Student-t quantile for 1 degree of freedom). */
  it("gives ci95 = [low, high] from two runs, and null below", async () => {
    const { meanWithCi, withCi95 } = await import("../../../pipeline/stats/mean-confidence-interval");
    const two = withCi95(meanWithCi([1, 3]));
    expect(two.ci95![0]).toBeCloseTo(2 - 12.706204736, 6);
    expect(two.ci95![1]).toBeCloseTo(2 + 12.706204736, 6);
    expect(withCi95(meanWithCi([5]))).toEqual({ n: 1, mean: 5, sd: 0, low: null, high: null, ci95: null });
    expect(withCi95(meanWithCi([]))).toEqual({ n: 0, mean: NaN, sd: 0, low: null, high: null, ci95: null });
    expect(withCi95({ n: 2, mean: 0, sd: 1, low: null, high: 1 }).ci95).toBeNull();
    expect(withCi95({ n: 2, mean: 0, sd: 1, low: -1, high: null }).ci95).toBeNull();
  });
});

describe("connections released, and the link re-shared when a transfer leaves", () => {
  const one = (imageMbit: number, workMi = 100) => ({ workMi: [workMi], imageMbit: [imageMbit] });

  /**
   * Links 4 and 0.5 Mbit/s on a 2 Mbit/s server, the faster client first: max-min serves the
   * slower link first whatever the clients' order (0.5 for client 1, 1.5 for client 0). Client
   * 0's 10 Mbit end at 100 + 10/1.5 s, client 1 runs on at 0.5 Mbit/s: ends at 120.
   */
  it("water-fills by increasing link, not by client", () => {
    const r = run({ server: { mbps: 2, connections: 10 } }, [{ linkMbps: 4 }, { linkMbps: 0.5 }], [one(10), one(10)]);
    expect(r.makespanS).toBeCloseTo(120, 9);
    expect(r.buckets.uploadS).toBeCloseTo(20 + 10 / 1.5, 9);
  });

  /**
   * Two 2 Mbit/s clients on a 2 Mbit/s server upload 10 and 20 Mbit at 100 s: 1 Mbit/s each
   * until client 0's ends at 110; client 1, alone, then gets the whole 2 Mbit/s for its 10 Mbit
   * left: 5 s, makespan 115 (at 1 Mbit/s on: 120).
   */
  it("gives a leaving transfer's share to the others", () => {
    const r = run({ server: { mbps: 2, connections: 10 } }, [{ linkMbps: 2 }, { linkMbps: 2 }], [one(10), one(20)]);
    expect(r.makespanS).toBeCloseTo(115, 9);
    expect(r.buckets.uploadS).toBeCloseTo(10 + 15, 9);
  });

  /**
   * Links 1 and 1 Mbit/s exactly fill a 2 Mbit/s server: no sharing, each transfer takes size /
   * link + latency (5 s). Results of 10 and 20 Mbit at 100 s end at 115 and 125: makespan 125
   * (client 0 then computes a duplicate of job 1, cut at 125). Had client 0's leaving counted
   * as the end of a sharing, client 1's end would have been recomputed without its latency.
   * Three jobs (10, 10, 20 Mbit; the bag hands job 2 to client 1): client 0 then computes job
   * 1 (115–215) and uploads it alone, 215–230: makespan 230; client 1, back at 125, computes a
   * duplicate of job 1 (125–225) and uploads from 225 (cut at 230). Had the releases not taken
   * the links off the server's load, client 0's last upload would have been taken for shared.
   */
  it("adds the latency while the links do not exceed the server", () => {
    const server = { mbps: 2, connections: 10 };
    const two = run({ latencySeconds: 5, server }, [{ linkMbps: 1 }, { linkMbps: 1 }], [one(10), one(20)]);
    expect(two.makespanS).toBeCloseTo(125, 9);
    const r = run({ latencySeconds: 5, server }, [{ linkMbps: 1 }, { linkMbps: 1 }], [one(10), one(10), one(20)]);
    expect(r.makespanS).toBeCloseTo(230, 9);
    expect(r.buckets.uploadS).toBeCloseTo(15 + 25 + 15 + 5, 9);
    expect(r).toMatchObject({ completedJobs: 3, copies: 4 });
  });

  /**
   * One connection, three clients whose results (10 Mbit at 1 Mbit/s) are ready at 100 s: they
   * upload one after the other, 100–110, 110–120, 120–130; waits 10 + 20 s.
   */
  it("starts one waiting client per connection freed", () => {
    const r = run({ server: { mbps: 1000, connections: 1 } }, [{ linkMbps: 1 }, { linkMbps: 1 }, { linkMbps: 1 }], [one(10), one(10), one(10)]);
    expect(r.makespanS).toBeCloseTo(130, 9);
    expect(r.connectionWaitS).toBeCloseTo(30, 9);
  });

  /**
   * The same with client 1 away 105–200 s (suspend) while it waits: it leaves the queue, client
   * 2 uploads 110–120, and client 1 asks again on return: 200–210. Waits: client 1 100–105,
   * client 2 100–110: 15 s; makespan 210.
   */
  it("skips a client that left the queue", () => {
    const r = run({ server: { mbps: 1000, connections: 1 } }, [{ linkMbps: 1 }, { linkMbps: 1, up: [[0, 105], [200, FOREVER]] }, { linkMbps: 1 }], [one(10), one(10), one(10)]);
    expect(r.makespanS).toBeCloseTo(210, 9);
    expect(r.connectionWaitS).toBeCloseTo(15, 9);
    expect(r.buckets.uploadS).toBeCloseTo(30, 9);
  });

  /**
   * A link server of 2 Mbit/s, 2 Mbit/s links; client 0's lifetime ends at 250 s. Job 0 (client
   * 0): three slices of 100 s; job 1 (client 1): two. Both checkpoint at 100 (sharing: 1 Mbit/s
   * each, 100–110) and at 210 (client 0's checkpoint, client 1's result: 210–220): three
   * checkpoints accepted. Client 0
   * dies at 250 in slice 3 (30 s lost); client 1, done with job 1 at 220, gets job 0 from its
   * second checkpoint: download 220–225, slice 3 225–325, result 325–330. Transfers rescheduled
   * when a second one starts must not touch other events (client 0's lifetime end).
   */
  it("reschedules only the transfers' own events", () => {
    const three = { workMi: [100, 100, 100], imageMbit: [10, 10, 10] };
    const two = { workMi: [100, 100], imageMbit: [10, 10] };
    const r = run({ server: { mbps: 2, connections: 10 } }, [{ linkMbps: 2, lifetimeEndS: 250 }, { linkMbps: 2 }], [three, two]);
    expect(r.makespanS).toBeCloseTo(330, 9);
    expect(r.lostComputationS).toBeCloseTo(30, 9);
    expect(r).toMatchObject({ failuresPermanent: 1, jobsFinishedByDuplicate: 1, checkpointsAccepted: 3 });
  });

  /**
   * The same three-slice job on a measured server of 2 MB/s with client 0 alone at first (client
   * 1 up from 1000 s, 2 Mbit/s, 0.5 MIPS): checkpoints of 10 Mbit on a 1 Mbit/s link take 10 s
   * (its link binds), 100–110 and 210–220; client 0 dies at 250 (30 s lost); client 1 downloads
   * the second checkpoint 1000–1005, computes slice 3 in 200 s and uploads it 1205–1210. The
   * server's own completion events must not cancel the lifetime's.
   */
  it("a measured server schedules its completions apart from the other events", () => {
    const three = { workMi: [100, 100, 100], imageMbit: [10, 10, 10] };
    const r = run({}, [{ linkMbps: 1, lifetimeEndS: 250 }, { linkMbps: 2, speedMips: 0.5, up: [[1000, FOREVER]] }], [three], "every-slice", FLAT_SERVER);
    expect(r.makespanS).toBeCloseTo(1210, 9);
    expect(r.lostComputationS).toBeCloseTo(30, 9);
    expect(r.server).toMatchObject({ transfers: 4, completed: 4, interrupted: 0 });
  });

  /**
   * Measured server, one connection; the bag hands jobs 0, 2, 1 to clients 0, 1, 2. Client 0's result (160 Mbit: 20 MB, 10 s at 2 MB/s) starts
   * at 100; client 0 is away from 105 (suspend) and its lifetime ends at 150, while down: its
   * connection is freed once, at 105. Client 1 (ready at 102, waiting) uploads 3200 Mbit (400
   * MB) 105–305; client 2, ready at 200, waits for it: 200–305, then 305–315. The horizon (360 s)
   * stops the run. Waits: 3 + 105 s. Freed twice, the connection would have let client 2 in at
   * 200, beside client 1.
   */
  /**
   * Client 0's result of 20 MB at 2 MB/s (100–110 s) cut by a horizon at 105 s: the run ends at
   * its last event, client 1 leaving at 104 (while computing, which the server does not see).
   * The server's accounting is closed there: 4 s busy, 8 MB delivered.
   */
  it("a measured server's accounting is closed at the run's end", () => {
    const r = run({ horizonHours: 105 / H }, [{ linkMbps: 80 }, { linkMbps: 80, up: [[0, 104], [1000, FOREVER]] }], [one(160), one(160, 200)], "every-slice", FLAT_SERVER);
    expect(r.makespanS).toBeNull();
    expect(r.endS).toBe(104);
    expect(r.server!.busyS).toBeCloseTo(4, 9);
    expect(r.server!.deliveredMb).toBeCloseTo(8, 9);
  });

  it("a measured server frees a connection once, however often its client fails", () => {
    const clients = [{ linkMbps: 80, lifetimeEndS: 150, up: [[0, 105], [1000, FOREVER]] as [number, number][] }, { linkMbps: 80 }, { linkMbps: 80 }];
    const r = run({ server: { model: "paper", connections: 1, outsideDomain: "clamp", volume: "whole" }, horizonHours: 0.1 } as Partial<BktScenario>, clients, [one(160), one(160, 200), one(3200, 102)], "every-slice", FLAT_SERVER);
    expect(r.connectionWaitS).toBeCloseTo(3 + 105, 9);
    expect(r).toMatchObject({ completedJobs: 2, failuresPermanent: 1, failuresTransient: 1 });
    expect(r.server).toMatchObject({ interrupted: 1, completed: 2 });
  });
});

describe("failures in the middle of things", () => {
  const twoSlices = { workMi: [100, 100], imageMbit: [10, 10] };
  const one = (imageMbit: number, workMi = 100) => ({ workMi: [workMi], imageMbit: [imageMbit] });

  /**
   * Suspend, away twice in slice 2 (110–210): at 150 (60 s left) back at 400, at 450 (10 s
   * left) back at 600: the slice ends at 610, the result 610–620. Nothing lost.
   */
  it("suspend: a slice resumed twice keeps what is left of it", () => {
    const r = run({ transient: "suspend" }, [{ linkMbps: 1, up: [[0, 150], [400, 450], [600, FOREVER]] }], [twoSlices]);
    expect(r.makespanS).toBeCloseTo(620, 9);
    expect(r.buckets.computeS).toBeCloseTo(200, 9);
    expect(r).toMatchObject({ failuresTransient: 2, lostComputationS: 0 });
  });

  /**
   * Suspend, away from 150 s in slice 2 (60 s left) and the lifetime ends at 300 s while away:
   * the 40 s computed since the accepted checkpoint are lost (not the time away).
   */
  it("a lifetime ending while a suspended slice waits loses the part computed", () => {
    const r = run({ transient: "suspend" }, [{ linkMbps: 1, up: [[0, 150], [400, FOREVER]], lifetimeEndS: 300 }], [twoSlices]);
    expect(r.lostComputationS).toBeCloseTo(40, 9);
    expect(r).toMatchObject({ makespanS: null, failuresTransient: 1, failuresPermanent: 1 });
    expect(r.endS).toBeCloseTo(300, 9);
  });

  /**
   * Suspend, away at 210 s, the very end of slice 2 (the failure comes first: nothing of the
   * slice is left to compute, and its result not sent), the lifetime ending at 300: the whole
   * slice, 100 s, is lost.
   */
  it("a lifetime ending after a slice suspended at its end loses the slice", () => {
    const r = run({ transient: "suspend" }, [{ linkMbps: 1, up: [[0, 210], [400, FOREVER]], lifetimeEndS: 300 }], [twoSlices]);
    expect(r.lostComputationS).toBeCloseTo(100, 9);
  });

  /** Suspend, away from 105 s in the first checkpoint's upload (100–110), the lifetime ends at 300: slice 1, not yet saved, is lost (100 s). */
  it("a lifetime ending while a suspended upload waits loses the slice it was saving", () => {
    const r = run({ transient: "suspend" }, [{ linkMbps: 1, up: [[0, 105], [1000, FOREVER]], lifetimeEndS: 300 }], [twoSlices]);
    expect(r.lostComputationS).toBeCloseTo(100, 9);
  });

  /** Abort under "none", away at 150 s (150 s lost) and the lifetime ends at 300 while away: the copy died already, nothing more is lost. */
  it("abort: a lifetime ending after the copy died loses nothing more", () => {
    const r = run({ transient: "abort" }, [{ linkMbps: 1, up: [[0, 150], [400, FOREVER]], lifetimeEndS: 300 }], [twoSlices], "none");
    expect(r.lostComputationS).toBeCloseTo(150, 9);
    expect(r).toMatchObject({ failuresTransient: 1, failuresPermanent: 1 });
  });

  /**
   * The lifetime case of "failures" with client 1 away 1005–1100 s in its download (1000–1010,
   * suspend): the download starts again on return, 1100–1110, then slice 2 1110–1210 and the
   * result 1210–1220. Under abort the copy dies in the download, having computed nothing:
   * nothing more lost; back at 1100 it downloads again (a new copy): the same times.
   */
  it("a download a failure interrupts starts again on return", () => {
    const clients = [{ linkMbps: 1, lifetimeEndS: 150 }, { linkMbps: 1, up: [[1000, 1005], [1100, FOREVER]] as [number, number][] }];
    const r = run({ transient: "suspend" }, clients, [twoSlices]);
    expect(r.makespanS).toBeCloseTo(1220, 9);
    expect(r.downloadS).toBeCloseTo(15, 9);
    expect(r).toMatchObject({ downloadedMbit: 10, copies: 2, failuresTransient: 1 });
    // With one connection, the interrupted download frees it: client 1 gets it again on return.
    expect(run({ transient: "suspend", server: { mbps: 1000, connections: 1 } }, clients, [twoSlices]).makespanS).toBeCloseTo(1220, 9);
    const abort = run({ transient: "abort" }, clients, [twoSlices]);
    expect(abort.makespanS).toBeCloseTo(1220, 9);
    expect(abort.lostComputationS).toBeCloseTo(40, 9);
    expect(abort.copies).toBe(3);
  });

  /**
   * Client 0 departs at 150 s; its trace node would change state at 500 s, which must not
   * count once it has departed. Events: client 0's request (0), compute end (100), checkpoint
   * (110) and lifetime end (150); client 1's return (1000) and request, download end (1010),
   * compute end (1110) and result (1120): 9. Client 1, down at 0, asks for nothing then.
   */
  it("a departed client's availability changes no longer happen", () => {
    const r = run({}, [{ linkMbps: 1, lifetimeEndS: 150, up: [[0, 500], [600, FOREVER]] }, { linkMbps: 1, up: [[1000, FOREVER]] }], [twoSlices]);
    expect(r.makespanS).toBeCloseTo(1120, 9);
    expect(r.events).toBe(9);
  });

  /** A client whose lifetime ends at t = 0 takes no job: client 1 does it alone, 0–100 and its result 100–110. */
  it("a client departed at t = 0 asks for nothing", () => {
    const r = run({}, [{ linkMbps: 1, lifetimeEndS: 0 }, { linkMbps: 1 }], [one(10)]);
    expect(r.makespanS).toBeCloseTo(110, 9);
    expect(r).toMatchObject({ copies: 1, failuresPermanent: 1 });
    expect(r.buckets.departedS).toBeCloseTo(110, 9);
  });

  /**
   * One connection (link server of 1000 Mbit/s, 1 Mbit/s links), suspend; the bag hands jobs
   * 0, 2, 1 to clients 0, 1, 2. Client 0 uploads its 10 Mbit result from 100 and is away
   * 105–200: the connection is freed at once, and client 1 (job 2 of 102 s, ready at 102)
   * uploads 105–115 (waited 3 s). Client 2 (job 1) is away 50–300 while computing, which frees
   * nothing. Client 1 then computes a duplicate of job 0 (115–215, the first uncompleted),
   * client 0 uploads again 200–210 (job 0 done), then takes a duplicate of job 1 (210–310) and
   * uploads it 310–320: makespan 320; client 1's result of job 0 (215–225) is discarded. Had the computing client's failure freed a connection,
   * clients 0 and 1 would have uploaded side by side, not waited.
   */
  it("a failure frees the connection of a transfer, not of a computation", () => {
    const clients = [{ linkMbps: 1, up: [[0, 105], [200, FOREVER]] as [number, number][] }, { linkMbps: 1 }, { linkMbps: 1, up: [[0, 50], [300, FOREVER]] as [number, number][] }];
    const r = run({ transient: "suspend", server: { mbps: 1000, connections: 1 } }, clients, [one(10), one(10), one(10, 102)]);
    expect(r.makespanS).toBeCloseTo(320, 9);
    expect(r.connectionWaitS).toBeCloseTo(3, 9);
    expect(r).toMatchObject({ resultsDiscarded: 1, jobsFinishedByDuplicate: 1 });
  });

  /**
   * Client 0 (link server of 1000 Mbit/s, 2 Mbit/s links): job 0 of three slices, lifetime end
   * at 250 s. Client 1: job 1 of one slice, away 103–200 in its result's upload (100–105).
   * Client 0: checkpoints 100–105 and 205–210, dies at 250 in slice 3 (40 s lost). Client 1
   * uploads again 200–205, then takes job 0 from its first checkpoint (the second is not
   * held yet): download 205–210, slice 2 210–310, an outdated checkpoint 310–315, slice 3
   * 315–415, the result 415–420. A failure in an upload must leave the other clients' events
   * (client 0's lifetime end) alone.
   */
  it("a failure cancels only the client's own events", () => {
    const three = { workMi: [100, 100, 100], imageMbit: [10, 10, 10] };
    const r = run({ transient: "suspend" }, [{ linkMbps: 2, lifetimeEndS: 250 }, { linkMbps: 2, up: [[0, 103], [200, FOREVER]] }], [three, one(10)]);
    expect(r.makespanS).toBeCloseTo(420, 9);
    expect(r.lostComputationS).toBeCloseTo(40, 9);
    expect(r).toMatchObject({ failuresPermanent: 1, checkpointsOutdated: 1 });
  });

  /** The trace read from 10 000 s on, a client away 150–400 s (suspend, the case above): its return is at 400 of the run, not 20 400. */
  it("reads every change of the trace from its instant t = 0", () => {
    const told: string[] = [];
    const r = run({ transient: "suspend" }, [{ linkMbps: 1, up: [[0, 150], [400, FOREVER]] }], [twoSlices], "every-slice", null, 10_000, (c, t, up) => told.push(`${c} ${t} ${up}`));
    expect(r.makespanS).toBeCloseTo(470, 9);
    expect(told).toEqual(["0 150 false", "0 400 true"]);
  });
});

describe("the law a copy's policy plans with (failureLawForPolicy)", () => {
  /** Runs one copy per client with a policy that records each copy's law, on the given run law. */
  function lawsSeen(over: Partial<BktScenario>, clients: Client[], runLaw: ReturnType<typeof createLaw>, originS: number): string[] {
    const seen: string[] = [];
    const policy: CheckpointPolicy = { name: "record", plan: (input) => (seen.push(`${input.law.description} | mean ${input.law.mean.toFixed(0)}`), []) };
    const scenario = validateBktScenario({ ...BKT_PAPER_PRESET, clients: clients.length, jobs: 1, policies: ["none"], ...over });
    runBkt({
      scenario,
      platform: platformOf(clients, [{ workMi: [100], imageMbit: [10] }]),
      streams: firstChoice(),
      policy,
      server: null,
      trace: { trace: { nodes: clients.map((c) => node(c.up!)) } as AvailabilityTrace, nodeOfClient: Int32Array.from(clients, (_, k) => k), originS },
      policyLaw: runLaw,
    });
    return seen;
  }
  const exp2h = createLaw(parseLawString("exp:mean=2,unit=h").spec);

  /**
   * "availability-aged": the availability law at the host's age in its current interval. The
   * trace is read from 1000 s; the host has been up since 500 s of it: age 500 s at t = 0.
   * The exponential's residual is itself (mean 7200 s), named with its age.
   */
  it("ages the availability law by the host's current interval", () => {
    expect(lawsSeen({ failureLawForPolicy: "availability-aged", lifetime: "none" }, [{ linkMbps: 1, up: [[500, FOREVER]] }], exp2h, 1000)).toEqual([`${exp2h.description} at age 500 s | mean 7200`]);
  });

  /** "lifetime": the lifetime law (exponential, mean 10 h) at the host's age in the grid, 0 s at t = 0. */
  it("takes the lifetime law at the host's age", () => {
    const seen = lawsSeen({ failureLawForPolicy: "lifetime", lifetime: "exp:mean=10,unit=h" }, [{ linkMbps: 1, up: [[0, FOREVER]] }], exp2h, 0);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatch(/ \| mean 36000$/);
  });
});

describe("hosts that follow the availability laws (no trace)", () => {
  /**
   * With availability intervals of mean 10⁹ h no host fails in the 2 h these runs take (P <
   * 10⁻⁸ per host): the two-client scenario of the summary's test gives its makespans, 7236 s
   * under "none", whether hosts start fresh (all up) or in the alternating process's
   * equilibrium (P(up) = 10⁹ h / (10⁹ h + 1 h)).
   */
  for (const startState of ["fresh", "stationary"] as const) {
    it(`runs as the trace of a host always up (${startState})`, async () => {
      const report = await simulateBkt(
        validateBktScenario({ ...BKT_PAPER_PRESET, clients: 2, jobs: 2, slicesPerJob: [2, 2], sliceHours: [1, 1], speedMips: { mean: 1771, sd: 0 }, hostMbps: [1, 1], checkpointMbit: [36, 36], lifetime: "none", availability: "exp:mean=1000000000,unit=h", unavailability: "exp:mean=1,unit=h", startState, policies: ["none"] }),
      );
      expect(report.policies.none!.makespanH.mean * H).toBeCloseTo(7236, 6);
      expect(report.runs[0]).toMatchObject({ failuresTransient: 0, completedJobs: 2 });
      expect(report.trace).toBeNull();
      // The policies plan with the availability law itself.
      expect(report.policyLaw).toBe(createLaw(parseLawString("exp:mean=1000000000,unit=h").spec).description);
    });
  }
});

describe("the simulator's summary of runs with failures and waits", () => {
  /** One node up 0–5000 s and 6000–86 400 s, which every client follows. */
  function gap(): string {
    const path = join(dir, "gap.tab");
    const header = "# event_id component_id node_id platform_id node_name event_type event_start_time event_stop_time event_end_reason";
    writeFileSync(path, [header, "0 0 1 0 n1 1 0 5000 NULL", "1 0 1 0 n1 0 5000 6000 NULL", "2 0 1 0 n1 1 6000 86400 NULL", ""].join("\n"));
    return path;
  }
  /** Slices of 1 h (1771 MI at 1771 MIPS), 36 Mbit images on 1 Mbit/s links (36 s). */
  const scenario = (over: Partial<BktScenario>) =>
    validateBktScenario({ ...BKT_PAPER_PRESET, slicesPerJob: [2, 2], sliceHours: [1, 1], speedMips: { mean: 1771, sd: 0 }, hostMbps: [1, 1], checkpointMbit: [36, 36], lifetime: "none", trace: gap(), policies: ["none", "every-slice"], ...over });

  /**
   * Two clients, two jobs, one connection, suspend: both away 5000–6000 s. "every-slice": both
   * checkpoint at 3600, client 1 waiting 36 s for client 0 (3600–3636, 3636–3672); slice 2
   * ends at 7236 + 1000 and 7272 + 1000; results 8236–8272 and 8272–8308: makespan 8308 s.
   * Client 0, done at 8272, takes a duplicate of job 1 from its checkpoint and waits for the
   * connection to download it while client 1 uploads (8272–8308): 36 s more of wait.
   * "none": both results at 8200, one after the other: 8236 and 8272 (client 0's duplicate
   * starts from scratch, no download). Per run: two transient failures, none lost.
   */
  it("gives the connection waits and the failures per run", async () => {
    const report = await simulateBkt(scenario({ clients: 2, jobs: 2, server: { mbps: 1000, connections: 1 }, transient: "suspend" }));
    const every = report.policies["every-slice"]!;
    expect(every.makespanH.mean * H).toBeCloseTo(8308, 6);
    expect(report.policies.none!.makespanH.mean * H).toBeCloseTo(8272, 6);
    expect(every.connectionWaitH.mean * H).toBeCloseTo(72, 6);
    expect(report.policies.none!.connectionWaitH.mean * H).toBeCloseTo(36, 6);
    expect(every.failures.transient.mean).toBe(2);
    expect(every.failures.permanent.mean).toBe(0);
    expect(every.checkpointOverheadH.mean * H).toBeCloseTo(4 * 36 + 72, 6);
    expect(report.pairedMakespanDifferenceH["every-slice − none"]!.mean * H).toBeCloseTo(36, 6);
  });

  /**
   * Two nodes, one up all day and one with the 5000–6000 s gap, for four clients: reused
   * cyclically, each node is followed by two clients, whatever the seeded permutation. Four
   * jobs of two 1 h slices under "none" (results of 36 s, 100 connections): the clients of the
   * node with the gap end at 8236 s, the others at 7236; two transient failures per run. The
   * trace's last line is not one of the format.
   */
  it("spreads the clients over the nodes, two per node", async () => {
    const path = join(dir, "two-nodes.tab");
    const header = "# event_id component_id node_id platform_id node_name event_type event_start_time event_stop_time event_end_reason";
    writeFileSync(path, [header, "0 0 1 0 n1 1 0 5000 NULL", "1 0 1 0 n1 0 5000 6000 NULL", "2 0 1 0 n1 1 6000 86400 NULL", "3 0 2 0 n2 1 0 86400 NULL", "not a line of the format", ""].join("\n"));
    const report = await simulateBkt(scenario({ clients: 4, jobs: 4, transient: "suspend", trace: path, policies: ["none"], replications: 2 }));
    expect(report.runs.map((r) => r.failuresTransient)).toEqual([2, 2]);
    expect(report.policies.none!.makespanH.mean * H).toBeCloseTo(8236, 6);
    expect(report.warnings[0]).toBe("2 nodes of the trace are observed at day 0 for 4 clients: nodes are reused cyclically (a seeded permutation)");
    // The line the reader rejected is said after it.
    expect(report.warnings[1]).toMatch(/^1 of the 6 lines of .*two-nodes\.tab were rejected/);
  });

  /** A sweep's cell of the two cases above (seed 1): the waits, failures and lost work per policy, in hours. */
  it("keeps the waits, failures and lost work in a sweep's cell", async () => {
    const waits = await bktModel.run(scenario({ clients: 2, jobs: 2, server: { mbps: 1000, connections: 1 }, transient: "suspend" }) as unknown as Record<string, unknown>, 1);
    expect(waits.policies["every-slice"]!.connectionWaitH).toBeCloseTo(72 / H, 12);
    expect(waits.policies["every-slice"]!.makespanH).toBeCloseTo(8308 / H, 12);
    expect(waits.policies["every-slice"]).toMatchObject({ failuresTransient: 2, failuresPermanent: 0, sliceBoundaries: 2 });
    const lost = await bktModel.run(scenario({ clients: 1, jobs: 1, transient: "abort" }) as unknown as Record<string, unknown>, 1);
    expect(lost.policies["every-slice"]!.lostComputationH).toBeCloseTo(1364 / H, 12);
    expect(lost.policies["every-slice"]!.averageWasteH).toBeCloseTo((1364 + 3 * 36) / H, 12);
    expect(lost.policies.none!.lostComputationH).toBeCloseTo(5000 / H, 12);
    expect(lost.policies["every-slice"]).toMatchObject({ copies: 2, sentMbit: 3 * 36, failuresTransient: 1 });
  });

  /**
   * A user's module that checkpoints after every slice runs after the built-ins, on the same
   * hosts: its runs are every-slice's (makespan 8308 s above), named by the module's policy,
   * paired with the first policy, and the report names the module's file.
   */
  it("runs users' policy modules after the built-in policies", async () => {
    const file = join(dir, "all.mjs");
    writeFileSync(file, `export default { name: "all", plan: ({ sliceSeconds }) => sliceSeconds.map((_, i) => i + 1) };`);
    const report = await simulateBkt(scenario({ clients: 2, jobs: 2, server: { mbps: 1000, connections: 1 }, transient: "suspend", policies: ["none"], policyModules: [file] }));
    expect(Object.keys(report.policies)).toEqual(["none", "all"]);
    expect(report.policies.all!.makespanH.mean * H).toBeCloseTo(8308, 6);
    expect(report.runs.map((r) => r.policy)).toEqual(["none", "all"]);
    expect(report.pairedMakespanDifferenceH["all − none"]!.mean * H).toBeCloseTo(36, 6);
    expect(report.policyModules).toEqual([{ file, sha256: expect.stringMatching(/^[0-9a-f]{64}$/), name: "all" }]);
  });

  /**
   * One client, one job, abort: the copy dies at 5000 s. "none" had saved nothing: 5000 s lost;
   * back at 6000 the job again from scratch, 6000–13 200, result 13 200–13 236. "every-slice"
   * had its checkpoint (3600–3636): 1364 s lost; back at 6000 it downloads it (36 s), computes
   * slice 2 6036–9636 and uploads 9636–9672. Two replications (seeds 1, 2) give the same run:
   * sd 0, an interval of zero width.
   */
  it("gives the lost computation, the downloads and the copies per run", async () => {
    const report = await simulateBkt(scenario({ clients: 1, jobs: 1, transient: "abort", replications: 2 }));
    const none = report.policies.none!;
    const every = report.policies["every-slice"]!;
    expect(none.makespanH.mean * H).toBeCloseTo(13236, 6);
    expect(none.lostComputationH.mean * H).toBeCloseTo(5000, 6);
    expect(none.averageWasteH.mean * H).toBeCloseTo(5036, 6);
    expect(every.makespanH.mean * H).toBeCloseTo(9672, 6);
    expect(every.lostComputationH.mean * H).toBeCloseTo(1364, 6);
    expect(every.downloadedMbit.mean).toBe(36);
    expect(every.sentMbit.mean).toBe(3 * 36);
    expect(every.copies.mean).toBe(2);
    expect(every.duplicateWorkH.mean).toBe(0);
    expect(every.makespanH.sd).toBe(0);
    expect(every.makespanH.ci95![0]).toBeCloseTo(9672 / H, 9);
    expect(every.makespanH.ci95![1]).toBeCloseTo(9672 / H, 9);
    expect(report.runs.map((r) => `${r.seed} ${r.policy}`)).toEqual(["1 none", "1 every-slice", "2 none", "2 every-slice"]);
    expect(report.events).toBe(report.runs.reduce((sum, r) => sum + r.events, 0));
    expect(every.events.mean).toBe(report.runs[1]!.events);
  });
});

describe("a host's state at t = 0 in its availability process's equilibrium (stationaryStart)", () => {
  /** A law whose every draw is `drawS`, with the given mean (which only sets how far back the process starts). */
  const fixed = (meanSeconds: number, drawS: number) => ({ meanSeconds, sample: () => drawS }) as unknown as FailureLaw;

  /**
   * Means of 1 s: the process starts 2000 h = 7.2·10⁶ s before 0. Up 3·10⁶ s, down 10⁶ s:
   * changes at −4.2·10⁶ (down), −3.2·10⁶ (up), −0.2·10⁶ (down), 0.8·10⁶: down at 0 since
   * −0.2·10⁶ s, up again at 0.8·10⁶ s.
   */
  it("runs the alternating process from 2000 h before 0", () => {
    expect(stationaryStart(fixed(1, 3e6), fixed(1, 1e6), zero)).toEqual({ up: false, nextChangeS: 0.8e6, sinceS: -0.2e6 });
  });

  /**
   * Means of 10⁵ and 5·10⁴ s: 100 mean cycles (1.5·10⁷ s) go further back than 2000 h. Up 4·10⁶,
   * down 2·10⁶: changes at −1.1·10⁷, −0.9·10⁷, −0.5·10⁷, −0.3·10⁷, then 10⁶: up at 0 since
   * −3·10⁶ s, down at 10⁶ s.
   */
  it("or from 100 mean cycles before 0 when that is further", () => {
    expect(stationaryStart(fixed(1e5, 4e6), fixed(5e4, 2e6), zero)).toEqual({ up: true, nextChangeS: 1e6, sinceS: -3e6 });
  });
});
