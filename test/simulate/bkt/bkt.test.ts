/**
 * The [BKT] simulator (docs/science.md §6.1) against closed forms, conservation laws and
 * its determinism, and the consistency of the paper's laws (RB11).
 */
import { describe, expect, it } from "vitest";
import { createLaw } from "../../../pipeline/place/laws/create-law";
import { parseLawString } from "../../../pipeline/place/laws/law-string";
import { createRandomStreams } from "../../../pipeline/simulate/engine/random-streams";
import { drawPlatform } from "../../../pipeline/simulate/bkt/bkt-platform";
import { runBkt } from "../../../pipeline/simulate/bkt/bkt-run";
import { BKT_PAPER_PRESET, readBktScenario, validateBktScenario, type BktScenario } from "../../../pipeline/simulate/bkt/bkt-scenario";
import { simulateBkt } from "../../../pipeline/simulate/bkt/bkt-simulator";

const H = 3600;

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
   * an attempt succeeds with probability e^{−λw}; each failed attempt costs its time to failure
   * (mean given T < w) plus a down time D; the number of failed attempts is geometric. The
   * known result: E[makespan] = (e^{λw} − 1)(1/λ + D). λ = 1/2 h⁻¹, w = 2 h, D = 1 h:
   * (e − 1)·3 = 5.1548 h.
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
    for (const trace of ["data/availability/microsoft99.avt.gz", "data/availability/lanl05-event-trace.tab.gz"]) {
      const report = await simulateBkt(validateBktScenario({ ...BKT_PAPER_PRESET, clients: 300, jobs: 60, trace, lifetime: "none", policies: ["none", "pckp"] }));
      expect(report.trace!.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(report.policyLaw).toMatch(/^empirical/);
      for (const run of report.runs) expect(run.completedJobs + run.unfinishedJobs, trace).toBe(60);
    }
  }, 60_000);
});
