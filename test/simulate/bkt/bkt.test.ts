/**
 * The [BKT] simulator (docs/science.md §6.1) against closed forms, conservation laws and
 * its determinism, and the consistency of the paper's laws (RB11).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createLaw } from "../../../pipeline/place/laws/create-law";
import { parseLawString } from "../../../pipeline/place/laws/law-string";
import { createRandomStreams } from "../../../pipeline/simulate/engine/random-streams";
import { drawPlatform } from "../../../pipeline/simulate/bkt/bkt-platform";
import { runBkt, stationaryStart } from "../../../pipeline/simulate/bkt/bkt-run";
import { BKT_PAPER_PRESET, readBktScenario, validateBktScenario, type BktScenario } from "../../../pipeline/simulate/bkt/bkt-scenario";
import { simulateBkt } from "../../../pipeline/simulate/bkt/bkt-simulator";
import { policyLawForCopy } from "../../../pipeline/simulate/bkt/bkt-policy-law";

const H = 3600;
const dir = mkdtempSync(join(tmpdir(), "ckpt-bkt-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** One host, one job of one slice of w hours, exponential up (mean 1/λ) and down (mean D) intervals, no checkpoint, a free result upload. */
function oneHost(transient: "suspend" | "abort", replications: number): BktScenario {
  return validateBktScenario({
    ...BKT_PAPER_PRESET,
    clients: 1,
    jobs: 1,
    slicesPerJob: [1, 1],
    sliceHours: [2, 2],
    speedMips: { mean: 1771, sd: 0 },
    checkpointMbit: [0, 0],
    availability: "exp:mean=2,unit=h",
    unavailability: "exp:mean=1,unit=h",
    lifetime: "none",
    transient,
    policies: ["none"],
    replications,
  });
}

describe("one host, one job, no checkpoint: the closed forms", () => {
  /**
   * abort: the job restarts from scratch after every failure. With failures at rate λ while up,
   * an attempt succeeds with probability q = e^{−λw}, so the number K of failed attempts is
   * geometric with E[K] = (1 − q)/q = e^{λw} − 1. A failed attempt lasts T given T < w, of mean
   * E[T | T < w] = 1/λ − w q/(1 − q), then a down time of mean D; the last attempt lasts w.
   * E[makespan] = w + E[K]·(E[T | T < w] + D) = w + (e^{λw} − 1)(1/λ + D) − w
   *             = (e^{λw} − 1)(1/λ + D).
   * λ = 1/2 h⁻¹, w = 2 h, D = 1 h: (e − 1)·3 = 5.1548 h.
   */
  it("abort: E[makespan] = (e^{λw} − 1)(1/λ + D)", async () => {
    const report = await simulateBkt(oneHost("abort", 4000));
    const expected = (Math.exp(0.5 * 2) - 1) * (2 + 1);
    const m = report.policies.none!.makespanH;
    expect(m.n).toBe(4000);
    expect(Math.abs(m.mean - expected)).toBeLessThan(3 * (m.sd / Math.sqrt(m.n)));
  });

  /**
   * suspend: the work is never lost; each failure while computing adds a down time. Failures
   * while computing w form a Poisson process of rate λ over w, so E[makespan] = w + λwD =
   * w(1 + λD) = 2(1 + 0.5) = 3 h.
   */
  it("suspend: E[makespan] = w(1 + λD)", async () => {
    const report = await simulateBkt(oneHost("suspend", 4000));
    const m = report.policies.none!.makespanH;
    expect(Math.abs(m.mean - 3)).toBeLessThan(3 * (m.sd / Math.sqrt(m.n)));
  });
});

describe("one host on a written availability trace: every metric computed by hand", () => {
  /**
   * One client following one trace node: available 0–5400 s, away 5400–7200 s, available
   * again from 7200 s. One job of two slices of 1 h each (speed sd 0, so exactly 3600 s per
   * slice), checkpoint images of 36 Mbit over a 1 Mbit/s link: every transfer takes 36 s
   * (latency 0, the 1000 Mbit/s server never binds), restarts download the last image.
   */
  function writtenTrace(): string {
    const path = join(dir, "one-node.tab");
    const header = "# event_id component_id node_id platform_id node_name event_type event_start_time event_stop_time event_end_reason";
    writeFileSync(path, [header, "0 0 1 0 n1 1 0 5400 NULL", "1 0 1 0 n1 0 5400 7200 NULL", "2 0 1 0 n1 1 7200 86400 NULL", ""].join("\n"));
    return path;
  }
  const scenario = (transient: "suspend" | "abort", clients = 1) =>
    validateBktScenario({
      ...BKT_PAPER_PRESET,
      clients,
      jobs: clients,
      slicesPerJob: [2, 2],
      sliceHours: [1, 1],
      speedMips: { mean: 1771, sd: 0 },
      hostMbps: [1, 1],
      checkpointMbit: [36, 36],
      lifetime: "none",
      trace: writtenTrace(),
      transient,
      policies: ["none", "every-slice"],
    });

  /**
   * abort, by hand:
   * - none: slice 1 runs 0–3600, slice 2 from 3600 until the failure at 5400: 3600 + 1800 =
   *   5400 s lost. Back at 7200 the copy starts over: 7200–14400, the result's upload takes 36 s,
   *   makespan 14436 s; overhead = that one upload, 36 s.
   * - every-slice: slice 1 0–3600, its checkpoint uploaded 3600–3636 (accepted), slice 2 from
   *   3636 until 5400: 1764 s lost. Back at 7200: download of the checkpoint 7200–7236, slice 2
   *   7236–10836, result 10836–10872. Overhead = 36 + 36 up + 36 down = 108 s.
   * Average waste = (overhead + lost) / clients.
   */
  it("abort: lost computation, checkpoint overhead, waste and makespan", async () => {
    const report = await simulateBkt(scenario("abort"));
    const byHand = { none: { lost: 5400, overhead: 36, makespan: 14436 }, "every-slice": { lost: 1764, overhead: 108, makespan: 10872 } };
    for (const [policy, want] of Object.entries(byHand)) {
      const p = report.policies[policy]!;
      expect(p.lostComputationH.mean * H, policy).toBeCloseTo(want.lost, 6);
      expect(p.checkpointOverheadH.mean * H, policy).toBeCloseTo(want.overhead, 6);
      expect(p.averageWasteH.mean * H, policy).toBeCloseTo(want.lost + want.overhead, 6);
      expect(p.makespanH.mean * H, policy).toBeCloseTo(want.makespan, 6);
      expect(p.failures.transient.mean, policy).toBe(1);
      const run = report.runs.find((r) => r.policy === policy)!;
      expect(run.lostComputationS, policy).toBeCloseTo(want.lost, 6);
      expect(run.copies, policy).toBe(2);
    }
    const everySlice = report.runs.find((r) => r.policy === "every-slice")!;
    expect(everySlice).toMatchObject({ checkpointsTaken: 1, checkpointsAccepted: 1, uploadedMbit: 72, downloadedMbit: 36 });
    expect(everySlice.downloadS).toBeCloseTo(36, 6);
  });

  /**
   * suspend, by hand, with two clients on the same node and two jobs (one copy each, never
   * killed, so no duplicate is ever handed out): nothing is lost; the failure pauses the copy.
   * - none: slice 2 has 1800 s left at 5400 and resumes at 7200: done at 9000, result at 9036.
   * - every-slice: slice 2 (3636–) has 1836 s left at 5400: done at 9036, result at 9072;
   *   overhead 36 + 36 = 72 s per client.
   * The run's totals are twice one client's; the average waste is per client.
   */
  it("suspend: no lost computation, the pause in the makespan", async () => {
    const report = await simulateBkt(scenario("suspend", 2));
    const byHand = { none: { overhead: 36, makespan: 9036 }, "every-slice": { overhead: 72, makespan: 9072 } };
    for (const [policy, want] of Object.entries(byHand)) {
      const p = report.policies[policy]!;
      expect(p.lostComputationH.mean, policy).toBe(0);
      expect(p.checkpointOverheadH.mean * H, policy).toBeCloseTo(2 * want.overhead, 6);
      expect(p.averageWasteH.mean * H, policy).toBeCloseTo(want.overhead, 6);
      expect(p.makespanH.mean * H, policy).toBeCloseTo(want.makespan, 6);
      expect(report.runs.find((r) => r.policy === policy)!.buckets.unavailableS, policy).toBeCloseTo(2 * 1800, 6);
    }
  });
});

describe("conservation", () => {
  const scenario = validateBktScenario({
    ...BKT_PAPER_PRESET,
    clients: 300,
    jobs: 120,
    checkpointMbit: [100, 100],
    policies: ["none", "periodic", "pckp", "every-slice"],
    server: { mbps: 1000, connections: 1 },
  });

  for (const transient of ["suspend", "abort"] as const) {
    it(`every job completes exactly once, bytes match checkpoints, client time adds up (${transient})`, async () => {
      const report = await simulateBkt({ ...scenario, transient });
      for (const run of report.runs) {
        expect(run.completedJobs, run.policy).toBe(scenario.jobs);
        expect(run.resultsSent - run.resultsDiscarded, run.policy).toBe(scenario.jobs);
        expect(run.checkpointsAccepted + run.checkpointsOutdated, run.policy).toBe(run.checkpointsTaken);
        expect(run.uploadedMbit, run.policy).toBeCloseTo(100 * (run.checkpointsTaken + run.resultsSent), 6);
        const b = run.buckets;
        const total = b.computeS + b.uploadS + b.downloadS + b.waitS + b.idleS + b.unavailableS + b.departedS;
        expect(total / (scenario.clients * run.endS), run.policy).toBeCloseTo(1, 9);
        expect(run.makespanS, run.policy).toBe(run.endS);
      }
      // With one connection for 300 clients, uploads queue: the wait is counted.
      expect(report.runs.find((r) => r.policy === "every-slice")!.connectionWaitS).toBeGreaterThan(0);
      expect(report.runs.find((r) => r.policy === "none")!.checkpointsTaken).toBe(0);
    });
  }
});

describe("determinism and common random numbers", () => {
  const scenario = validateBktScenario({ ...BKT_PAPER_PRESET, clients: 200, jobs: 60, policies: ["none", "pckp"] });

  it("gives the same output for the same seed, byte for byte", async () => {
    expect(JSON.stringify(await simulateBkt(scenario))).toBe(JSON.stringify(await simulateBkt(scenario)));
    expect(JSON.stringify(await simulateBkt({ ...scenario, seed: 2 }))).not.toBe(JSON.stringify(await simulateBkt(scenario)));
  });

  it("lets different policies see the same clients and the same availability histories", () => {
    const platform = drawPlatform(scenario, createRandomStreams(1));
    expect(drawPlatform(scenario, createRandomStreams(1))).toEqual(platform);
    const law = createLaw(parseLawString(scenario.availability).spec);
    const histories = (["none", "pckp"] as const).map((policy) => {
      const changes: string[] = [];
      const run = runBkt({ scenario, platform, streams: createRandomStreams(1), policy, trace: null, policyLaw: law, onAvailability: (c, t, isUp) => changes.push(`${c} ${t} ${isUp}`) });
      return changes.filter((line) => Number(line.split(" ")[1]) <= run.endS * 0.5);
    });
    expect(histories[0]!.length).toBeGreaterThan(100);
    const shared = Math.min(histories[0]!.length, histories[1]!.length);
    // Both runs see the same changes up to where the shorter one stopped.
    expect(new Set(histories[0]!.slice(0, shared))).toEqual(new Set(histories[1]!.slice(0, shared)));
  });
});

describe("the paper's laws (RB11, docs/science.md §6.1.8)", () => {
  const mean = (law: string) => createLaw(parseLawString(law).spec).meanSeconds;
  it("availability Weibull(0.431, 1.682 h): mean 4.61 h, median 0.72 h", () => {
    const law = createLaw(parseLawString(BKT_PAPER_PRESET.availability).spec);
    expect(law.meanSeconds / H).toBeCloseTo(4.609, 2);
    // median = scale · (ln 2)^(1/shape)
    expect((1.682 * Math.log(2) ** (1 / 0.431))).toBeCloseTo(0.72, 2);
    expect(law.cdf(1.682 * H * Math.log(2) ** (1 / 0.431))).toBeCloseTo(0.5, 9);
  });
  it("unavailability hyper-exponential: mean 3.93 h read as means, 13.08 h read as rates", () => {
    expect(mean(BKT_PAPER_PRESET.unavailability) / H).toBeCloseTo(3.93, 2);
    expect(mean(BKT_PAPER_PRESET.unavailability.replace("param=mean", "param=rate")) / H).toBeCloseTo(13.08, 2);
  });
  it("lifetime Weibull(0.58, 137 d): mean 216 days, median 73 days", () => {
    expect(mean(BKT_PAPER_PRESET.lifetime) / 86400).toBeCloseTo(216, 0);
    expect(137 * Math.log(2) ** (1 / 0.58)).toBeCloseTo(73, 0);
  });
});

describe("bad scenarios", () => {
  it("are refused with the file, the field's line and what it must be", () => {
    const text = '{\n  "clients": 100,\n  "checkpointMbit": [512, 10]\n}';
    expect(() => readBktScenario(text, "s.json")).toThrow(/^s\.json:3: checkpointMbit must be \[min, max\] with min ≤ max/);
    expect(() => readBktScenario('{"colour": 1}', "s.json")).toThrow(/unknown field "colour"/);
    expect(() => readBktScenario('{\n  "clients": 100,\n}', "s.json")).toThrow(/^s\.json:3:1: not valid JSON/);
    expect(() => readBktScenario('{"clients": 0}', "s.json")).toThrow(/clients must be an integer in \[1, 1000000\]/);
    expect(() => readBktScenario('{"lifetime": "lognormal:mu=1"}', "s.json")).toThrow(/lifetime must be law/);
    expect(() => readBktScenario('{"trace": "x.avt", "availability": "exp:mean=1,unit=h"}', "s.json")).toThrow(/either a trace or the availability/);
  });
});

describe("the server link", () => {
  it("when it binds, is shared: uploads never move more than its rate allows", async () => {
    const scenario = validateBktScenario({
      ...BKT_PAPER_PRESET,
      clients: 60,
      jobs: 30,
      checkpointMbit: [200, 200],
      policies: ["every-slice"],
      server: { mbps: 2, connections: 20 },
    });
    const run = (await simulateBkt(scenario)).runs[0]!;
    expect(run.completedJobs).toBe(30);
    // Sharing 2 Mbit/s among up to 20 transfers: the server's busy time is at least the bytes over its rate.
    expect(run.buckets.uploadS + run.buckets.downloadS).toBeGreaterThanOrEqual((run.uploadedMbit + run.downloadedMbit) / 2 - 1e-6);
  });
});

describe("availability from real traces", () => {
  it("runs on the Microsoft 1999 desktops (.avt) and the LANL nodes (FTA)", async () => {
    // LANL: its 3577 nodes were installed over ten years (one is observed at its start); day 3228 has the most, 1670.
    for (const [trace, traceStartDays] of [["data/availability/microsoft99.avt.gz", 0], ["data/availability/lanl05-event-trace.tab.gz", 3228]] as const) {
      const report = await simulateBkt(validateBktScenario({ ...BKT_PAPER_PRESET, clients: 300, jobs: 60, trace, traceStartDays, lifetime: "none", policies: ["none", "pckp"] }));
      expect(report.trace!.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(report.trace!.nodesObservedAtStart).toBeGreaterThanOrEqual(traceStartDays > 0 ? 1670 : 51_663);
      expect(report.warnings.join(" "), trace).not.toMatch(/reused cyclically/);
      expect(report.policyLaw).toMatch(/^empirical/);
      for (const run of report.runs) expect(run.completedJobs + run.unfinishedJobs, trace).toBe(60);
    }
  }, 60_000);
});

describe("the DP plans' cache (per job, law and cost vector)", () => {
  /**
   * Equal speeds, links drawn in [1.5, 1.6] Mbit/s and images of 10–20 Mbit: every checkpoint
   * costs 6–13 s, one quantum, so every copy of a job starting from the same slice has the
   * same cost vector in quanta and the same slices: one solve serves them all. (A cache keyed
   * by the host's link, which differs for every host, never hit here.)
   */
  it("solves once for copies whose costs round to the same quanta", async () => {
    const scenario = validateBktScenario({
      ...BKT_PAPER_PRESET,
      clients: 120,
      jobs: 15,
      slicesPerJob: [3, 6],
      speedMips: { mean: 1771, sd: 0 },
      hostMbps: [1.5, 1.6],
      checkpointMbit: [10, 20],
      policies: ["pckp"],
    });
    const run = (await simulateBkt(scenario)).runs[0]!;
    expect(run.completedJobs).toBe(15);
    expect(run.dpCacheHits).toBeGreaterThan(0);
    expect(run.dpCalls + run.dpCacheHits).toBe(run.copies);
    // At most one solve per (job, start slice) here: the restarts' download shifts differ by host, starts from scratch do not.
    expect(run.dpCalls).toBeLessThan(run.copies);
  });
});

describe("the laws a scenario can name", () => {
  it("runs with an empirical availability law read from a file and with the Failure Trace Archive's fitted models", async () => {
    const durations = join(dir, "availability.csv");
    writeFileSync(durations, "duration\n1800\n3600\n7200\n14400\n28800\n");
    for (const [availability, unavailability] of [
      [`empirical:${durations}`, BKT_PAPER_PRESET.unavailability],
      ["fitted:Microsoft99/gamma", "fitted:Microsoft99/lognormal"],
    ]) {
      const report = await simulateBkt(validateBktScenario({ ...BKT_PAPER_PRESET, clients: 40, jobs: 8, availability, unavailability, policies: ["none", "pckp"] }));
      for (const run of report.runs) expect(run.completedJobs, availability).toBe(8);
    }
    expect(() => validateBktScenario({ ...BKT_PAPER_PRESET, lifetime: "fitted:Microsoft99/weibull" })).toThrow(/fitted models are laws of availability and unavailability intervals/);
    expect(() => readBktScenario('{"availability": "weibull:shape=0.001,scale=1"}', "s.json")).toThrow(/availability must be .*mean overflows; use a shape ≥ 0.01/);
  });

  it("startState stationary draws the equilibrium state: P(up at 0) = mean up / (mean up + mean down), even for long cycles", () => {
    // 30 000 h up, 10 000 h down: P(up) = 0.75. A fixed 2000 h run-in would leave P(up) = 0.75 + 0.25·e^{−(1/30000 + 1/10000)·2000} = 0.977.
    const up = createLaw(parseLawString("exp:mean=30000,unit=h").spec);
    const down = createLaw(parseLawString("exp:mean=10000,unit=h").spec);
    const streams = createRandomStreams(5);
    let ups = 0;
    const n = 4000;
    for (let c = 0; c < n; c++) if (stationaryStart(up, down, streams.stream("availability", c)).up) ups++;
    // Binomial sd √(0.75·0.25/4000) = 0.0068: within 4 sd.
    expect(Math.abs(ups / n - 0.75)).toBeLessThan(0.028);
  });
});

describe("trace-driven hosts", () => {
  /** Nodes 1, 2, 3 observed over days 0–10, 5–20 and 15–30, up on their even days and down on their odd ones. */
  function threeNodes(): string {
    const lines = ["# event_id component_id node_id platform_id node_name event_type event_start_time event_stop_time event_end_reason"];
    for (const [node, from, to] of [[1, 0, 10], [2, 5, 20], [3, 15, 30]] as const) {
      for (let day = from; day < to; day++) lines.push(`${day} 0 ${node} 0 ${node} ${day % 2 === 0 ? 1 : 0} ${day * 86400} ${(day + 1) * 86400} NULL`);
    }
    const path = join(dir, "three.tab");
    writeFileSync(path, `${lines.join("\n")}\n`);
    return path;
  }

  it("follow the nodes observed at traceStartDays, and say where more are", async () => {
    const trace = threeNodes();
    const scenario = (traceStartDays: number) => validateBktScenario({ ...BKT_PAPER_PRESET, clients: 4, jobs: 2, slicesPerJob: [1, 2], sliceHours: [1, 2], trace, traceStartDays, lifetime: "none", policies: ["none"] });
    const atZero = await simulateBkt(scenario(0));
    expect(atZero.trace).toMatchObject({ startDays: 0, nodesObservedAtStart: 1 });
    expect(atZero.warnings.join("\n")).toMatch(/1 nodes of the trace are observed at day 0 for 4 clients: .*the most are observed at day 5 \(2 nodes\): --trace-start-days 5/);
    const atSix = await simulateBkt(scenario(6));
    expect(atSix.trace).toMatchObject({ startDays: 6, nodesObservedAtStart: 2 });
    expect(atSix.runs[0]!.completedJobs).toBe(2);
    await expect(simulateBkt(scenario(31))).rejects.toThrow(/traceStartDays: .* spans 30.0 days; start inside it/);
  });

  it("refuse a trace with no usable line, naming its lines and why", async () => {
    const path = join(dir, "garbage.tab");
    writeFileSync(path, "not a trace\n0 0 1 0 1 7 0 10 NULL\n");
    await expect(simulateBkt(validateBktScenario({ ...BKT_PAPER_PRESET, clients: 2, jobs: 1, trace: path }))).rejects.toThrow(
      /garbage\.tab: the trace has 0 node\(s\); a \[BKT\] run needs 1; 2 of its 2 lines were rejected, first .*garbage\.tab:1: expected at least 9 whitespace-separated fields .*garbage\.tab:2: event_type must be 1 \(available\) or 0/,
    );
  });
});

describe("the share of slice boundaries a policy checkpoints", () => {
  it("is 1 for every-slice, 0 for none, and counts each boundary a copy reaches with slices left", async () => {
    const scenario = validateBktScenario({ ...BKT_PAPER_PRESET, clients: 150, jobs: 60, policies: ["none", "every-slice", "periodic"], transient: "abort" });
    const report = await simulateBkt(scenario);
    const run = (policy: string) => report.runs.find((r) => r.policy === policy)!;
    expect(run("every-slice").checkpointDecisions).toBe(run("every-slice").sliceBoundaries);
    expect(report.policies["every-slice"]!.checkpointShare.mean).toBe(1);
    expect(run("none").checkpointDecisions).toBe(0);
    expect(run("none").sliceBoundaries).toBeGreaterThan(0);
    // Every decision that was not cut short by a failure became an upload.
    expect(run("every-slice").checkpointsTaken).toBeLessThanOrEqual(run("every-slice").checkpointDecisions);
    // Daly's period (~38 min) is shorter than any slice (≥ 1 h on most hosts): nearly every boundary (docs/science.md §6.1.5).
    expect(report.policies.periodic!.checkpointShare.mean).toBeGreaterThan(0.95);
  });
});

describe("the failure law the policies plan with (failureLawForPolicy, docs/science.md §6.1.4)", () => {
  const availability = createLaw(parseLawString(BKT_PAPER_PRESET.availability).spec);
  const lifetime = createLaw(parseLawString(BKT_PAPER_PRESET.lifetime).spec);
  const hosts = { availability, lifetime, availabilityAgeS: 10 * H, lifetimeAgeS: 300 * H };

  it("is the availability law from the copy's start by default, and the hosts' residual laws otherwise", () => {
    expect(policyLawForCopy("availability", hosts)).toBe(availability);
    const aged = policyLawForCopy("availability-aged", hosts);
    const remaining = policyLawForCopy("lifetime", hosts);
    // Residual laws: P(T ≤ a + t | T > a).
    expect(aged.cdf(H)).toBeCloseTo((availability.cdf(11 * H) - availability.cdf(10 * H)) / availability.survival(10 * H), 12);
    expect(remaining.cdf(H)).toBeCloseTo((lifetime.cdf(301 * H) - lifetime.cdf(300 * H)) / lifetime.survival(300 * H), 12);
    // A host up for 10 h is safer for the next hour than one just up (Weibull shape 0.431 < 1).
    expect(aged.cdf(H)).toBeLessThan(availability.cdf(H));
    // Both risks: survival is the product.
    const both = policyLawForCopy("competing", hosts);
    expect(both.survival(5 * H)).toBeCloseTo(aged.survival(5 * H) * remaining.survival(5 * H), 12);
  });

  it("changes what the policies do: planning with the remaining lifetime, Periodic checkpoints a small share of boundaries", async () => {
    const base = { ...BKT_PAPER_PRESET, clients: 150, jobs: 60, policies: ["periodic", "pckp-complete"] as BktScenario["policies"] };
    const unaged = await simulateBkt(validateBktScenario(base));
    const lifetimeLaw = await simulateBkt(validateBktScenario({ ...base, failureLawForPolicy: "lifetime" }));
    expect(unaged.policies.periodic!.checkpointShare.mean).toBeGreaterThan(0.95);
    // MTTF of months: Daly's period spans many slices.
    expect(lifetimeLaw.policies.periodic!.checkpointShare.mean).toBeLessThan(0.3);
    for (const run of lifetimeLaw.runs) expect(run.completedJobs).toBe(60);
    // No plan is shared between copies whose hosts' ages differ.
    expect(lifetimeLaw.runs.find((r) => r.policy === "pckp-complete")!.dpCacheHits).toBe(0);
  });

  it("refuses to plan with a lifetime law when clients never leave", () => {
    expect(() => validateBktScenario({ ...BKT_PAPER_PRESET, lifetime: "none", failureLawForPolicy: "competing" })).toThrow(/lifetime is "none"/);
    expect(() => validateBktScenario({ ...BKT_PAPER_PRESET, failureLawForPolicy: "aged" })).toThrow(/failureLawForPolicy must be one of "availability", "availability-aged", "lifetime", "competing"/);
  });
});
