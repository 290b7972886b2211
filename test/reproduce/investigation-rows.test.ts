/**
 * The rows of the headline-claim investigations (pipeline/reproduce/investigation-
 * rows.ts and its parts), on hand-made merged grids whose answers are known, the k0 work
 * counted against a brute-force enumeration, and the kept grids (current, or refreshed).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PAPER_MODEL } from "../../pipeline/fit/model";
import { bktCostMapRows, bktPaperScaleRows } from "../../pipeline/reproduce/bkt-claim-rows";
import { das06TraceClaimRows } from "../../pipeline/reproduce/das06-claim-rows";
import { investigationRows } from "../../pipeline/reproduce/investigation-rows";
import { k0ClaimRows, THESIS_K0_TABLES } from "../../pipeline/reproduce/k0-claim-rows";
import { k0Investigation } from "../../pipeline/schedule/readings/k0-work-growth";
import { scheduleCkptReadings } from "../../pipeline/schedule/readings/schedule-readings";
import { resolveScheduleOptions } from "../../pipeline/schedule/schedule-options";
import { projectRoot } from "../../pipeline/shared/version";
import { INVESTIGATION_GRIDS } from "../../pipeline/reproduce/investigations";
import type { MergedGroup, MergedSweep } from "../../pipeline/simulate/sweep/merge-sweep";

const stat = (mean: number) => ({ mean, n: 5, sd: 0, low: mean, high: mean });
const policies = (values: Record<string, Record<string, number>>) => Object.fromEntries(Object.entries(values).map(([p, m]) => [p, Object.fromEntries(Object.entries(m).map(([k, v]) => [k, stat(v)]))]));
const sweep = (groups: MergedGroup[], simulator = "bkt"): MergedSweep => ({ schema: "ckpt-lab/sweep-merged@1", simulator, specHash: "x", codeVersion: "y", axes: [], cells: [], groups });
const group = (parameters: Record<string, unknown>, values: Record<string, Record<string, number>>): MergedGroup => ({ parameters, seeds: [1, 2, 3, 4, 5], metrics: {}, policies: policies(values) });

describe("[BKT] claim rows", () => {
  const dp = (waste: number, checkpoints: number, share: number, makespan = 100) => ({ averageWasteH: waste, checkpointsTaken: checkpoints, checkpointOverheadH: checkpoints, checkpointShare: share, makespanH: makespan });
  const cell = (clients: number, jobs: number, half: boolean, noneMakespan = 120) =>
    group({ clients, jobs, transient: "suspend", checkpointSizeUnit: "Mbit", failureLawForPolicy: "availability", quantumS: 60 }, {
      none: dp(10, 0, 0, noneMakespan),
      periodic: dp(4, 1000, 1, 105),
      pckp: dp(half ? 2 : 3.8, half ? 480 : 990, half ? 0.48 : 0.99),
      "pckp-complete": dp(3.9, 960, 0.96),
    });

  it("read RB3 as the waste ratio and RB5 as the checkpoint ratio, with the shares of boundaries as evidence", () => {
    const rows = bktPaperScaleRows(sweep([cell(5000, 10000, true), cell(10000, 10000, false), cell(20000, 1000, false, 99), cell(20000, 10000, false)]));
    const byId = (id: string) => rows.find((r) => r.id === id)!;
    expect(byId("investigation/bkt/mbit-availability-suspend/pckp/rb3-waste-ratio")).toMatchObject({ ours: 0.5, verdict: "match" });
    expect(byId("investigation/bkt/mbit-availability-suspend/pckp-complete/rb3-waste-ratio").verdict).toBe("differs");
    const rb5 = byId("investigation/bkt/mbit-availability-suspend/pckp/rb5-half-the-checkpoints");
    expect(rb5.verdict).toBe("differs");
    expect(rb5.reason).toMatch(/checkpoints taken PCkP\/Periodic 0\.99.*Periodic 100\.0 %, PCkP 99\.0 %/);
    // RB6: Without FT (99 h) beats PCkP (100 h) at 1000 jobs, but PCkP (100 h) does not beat Periodic (105 h)? It does: best at 10000 jobs.
    expect(byId("investigation/bkt/mbit-availability-suspend/rb6-20000").verdict).toBe("match");
    // RB7: Without FT 99 h < Periodic 105 h at 1000 jobs but 120 h > 105 h at 10000 jobs.
    expect(byId("investigation/bkt/mbit-availability-suspend/rb7-20000").verdict).toBe("differs");
  });

  it("compare Periodic planning with the availability law against PCkP planning with the remaining lifetime (the mixed reading), cell by cell", () => {
    const lifetimeCell = group({ clients: 5000, jobs: 10000, transient: "suspend", checkpointSizeUnit: "Mbit", failureLawForPolicy: "lifetime", quantumS: 60 }, {
      none: dp(10, 0, 0),
      periodic: dp(9, 100, 0.1),
      pckp: dp(3, 900, 0.9),
      "pckp-complete": dp(2, 300, 0.3),
    });
    const rows = bktPaperScaleRows(sweep([cell(5000, 10000, false), lifetimeCell]));
    // Periodic 4 h/client under the availability law, PCkP-complete 2 h under the lifetime's.
    expect(rows.find((r) => r.id === "investigation/bkt/mbit-mixed-suspend/pckp-complete/rb3-waste-ratio")).toMatchObject({ ours: 0.5, verdict: "match" });
    expect(rows.find((r) => r.id === "investigation/bkt/mbit-lifetime-suspend/pckp-complete/rb3-waste-ratio")!.ours).toBeCloseTo(2 / 9, 12);
  });

  it("say whether the map reaches half anywhere, and where", () => {
    const point = (scale: number, connections: number, checkpoints: number, waste: number) =>
      group({ transient: "abort", failureLawForPolicy: "availability", checkpointMbit: [10 * scale, 512 * scale], server: { connections } }, { periodic: dp(10, 1000, 1), pckp: dp(waste, checkpoints, checkpoints / 1000) });
    const [row] = bktCostMapRows(sweep([point(1, 20, 990, 9.8), point(32, 5, 480, 4.5)]));
    expect(row).toMatchObject({ id: "investigation/bkt/map/abort/half-reachable", verdict: "match" });
    expect(row!.reason).toMatch(/1 of 2 points \(first: ×32, load of 20000 clients/);
  });
});

describe("[DAS06] claim rows", () => {
  it("hold on a trace where FCFS-TR has the smallest mean slowdown in the RD4, RD7 and RD9 cells, and name the predictor", () => {
    const slowdowns = (tr: number) => ({ FCFS: { slowdown: 2 }, "FCFS-AT": { slowdown: 2 }, "FCFS-TR": { slowdown: tr }, "FCFS-PRDCT-DMD": { slowdown: 1.9 } });
    const cells = (trace: string, predictor: string, tr: number) =>
      [
        ["M01", 25, 1800, "weekday"],
        ["M01", 75, 1800, "weekday"],
        ["M04", 75, 1800, "weekday"],
        ["M01", 75, 7200, "weekend"],
      ].flatMap(([machineSet, tasks, taskCpuS, startTimes]) =>
        ["shared", "private"].map((checkpointStore) => group({ trace, predictor, falsePositive: 0.1, machineSet, tasks, taskCpuS, startTimes, checkpoints: 0, checkpointStore }, slowdowns(tr))),
      );
    const rows = das06TraceClaimRows(sweep([...cells("data/availability/microsoft99.avt.gz", "oracle", 1.8), ...cells("data/availability/microsoft99.avt.gz", "noisy-oracle", 2.5)], "das06"));
    expect(rows.map((r) => [r.id, r.verdict])).toEqual([
      ["investigation/das06/microsoft99/oracle/tr-fastest", "match"],
      ["investigation/das06/microsoft99/noisy-10/tr-fastest", "differs"],
    ]);
    expect(rows[1]!.quantity).toMatch(/noisy predictor \(false alarms 10 %, missed failures 10 %\)/);
  });
});

describe("the k0 investigation", () => {
  it("counts, on one decision over every application with room for all, Σ_{j ≤ k0} C(n, j) subsets each checked then completed over the n − j others", () => {
    const apps = Array.from({ length: 6 }, (_, i) => ({ id: `a${i}`, pS: 100 + i, sizeMb: 10 }));
    const choose = (n: number, k: number): number => (k === 0 ? 1 : (choose(n, k - 1) * (n - k + 1)) / k);
    for (const k0 of [0, 1, 2, 3]) {
      const outcome = scheduleCkptReadings(apps, resolveScheduleOptions({ model: PAPER_MODEL, deadlineS: 1e6, k0, record: false }), { decisions: "once", candidates: "all" });
      let expected = 0;
      for (let j = 0; j <= k0; j++) expected += choose(6, j) * (1 + 6 - j);
      expect(outcome.estimates, `k0 = ${k0}`).toBe(expected);
      expect(outcome.checkpointed).toHaveLength(6);
    }
  });

  it("compares each thesis table's growth of the time from k0 = 1 to 2 with the closest reading's growth of the work", () => {
    const rows = k0ClaimRows(k0Investigation(2));
    expect(rows).toHaveLength(2 * THESIS_K0_TABLES.length);
    const a = rows.find((r) => r.id === "investigation/k0/A-p/work-growth")!;
    // Table 7.3: 20984 / 1825 µs.
    expect(a.paper).toBe(11.5);
    expect(a.source).toMatch(/\[Y-thesis\] Table 7\.3/);
    expect(rows.find((r) => r.id === "investigation/k0/A-p/share-rise")!.paper).toBe(25.7); // (6987 − 4275) / 10541
  });
});

describe("the investigations' kept grids", () => {
  it("give a not-recomputable row with the refresh commands when a grid is not current", () => {
    const rows = investigationRows({ grids: { "bkt-paper-scale": { grid: "g.json", merged: null, cells: 65, notCurrent: 3, refresh: "ckpt simulate sweep g.json …" } }, k0: { seeds: 1, growths: {} } });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: "investigation/bkt-paper-scale/not-current", verdict: "not recomputable", papers: ["[BKT]"] });
    expect(rows[0]!.reason).toMatch(/3 of 65 cells .* refresh: ckpt simulate sweep g\.json/);
  });

  it("are current: every cell kept was written by the simulators' present code (else refresh as the pipeline says; it never runs them)", async () => {
    const { parseSweepSpec } = await import("../../pipeline/simulate/sweep/sweep-spec");
    const { runShard } = await import("../../pipeline/simulate/sweep/run-shard");
    const { SIMULATORS } = await import("../../pipeline/simulate/simulator");
    const { mkdtempSync, rmSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const root = projectRoot();
    const scratch = mkdtempSync(join(tmpdir(), "ckpt-investigations-"));
    try {
      for (const [name, grid] of Object.entries(INVESTIGATION_GRIDS)) {
        const spec = parseSweepSpec(readFileSync(join(root, grid.grid), "utf8"), grid.grid);
        const outcome = await runShard(spec, SIMULATORS, join(scratch, name), { index: 0, count: 1 }, () => {}, [join(root, grid.results)], false);
        expect(outcome.missing, `${name}: refresh ${grid.results} (ckpt simulate sweep ${grid.grid} --out ${grid.results} --shard i/N, then merge)`).toBe(0);
      }
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }, 120_000);
});
