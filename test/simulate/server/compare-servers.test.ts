/**
 * The user's report's desktop grids (docs/science.md §6.6): both simulators with the fitted
 * server, Azur's and an ideal one, ranked per cell; a model that cannot price the load is
 * reported as not applicable, not as a failure; the report section's figures are valid
 * Vega-Lite and render; the stage runs in the report about a user's traces only.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PAPER_MODEL, type BandwidthModel } from "../../../pipeline/fit/model";
import { checkVegaLiteSpec } from "../../../pipeline/report/figures/validate-spec";
import { buildReportContent } from "../../../pipeline/report/page/report-content";
import { renderSvg } from "../../../pipeline/report/render/render-svg";
import { pipelinePlan, STAGES } from "../../../pipeline/run";
import { compareServers, type ServerComparison } from "../../../pipeline/simulate/server/compare-servers";
import { DEFAULT_SERVER_COMPARISON, type ServerComparisonParameters } from "../../../pipeline/simulate/server/server-comparison-parameters";
import { runCli } from "../../cli-io";

const dir = mkdtempSync(join(tmpdir(), "ckpt-compare-servers-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Small enough for a test: one [BKT] cell of 40 clients, two seeds; [DAS06] M04 on the first nine days of the classroom trace. */
const SMALL: ServerComparisonParameters = {
  ...DEFAULT_SERVER_COMPARISON,
  bkt: { ...DEFAULT_SERVER_COMPARISON.bkt, clients: 40, jobs: [10], seeds: 2 },
  das06: { ...DEFAULT_SERVER_COMPARISON.das06, machineSets: ["M04"], windowDays: [0, 9] },
};

describe("the servers' comparison", () => {
  let nfs: BandwidthModel;
  let comparison: ServerComparison;
  beforeAll(async () => {
    const path = join(dir, "nfs.json");
    expect((await runCli(["fit", "data/traces/nfs-8x100mbit.csv", "--out", path])).code).toBe(0);
    nfs = JSON.parse(readFileSync(path, "utf8")) as BandwidthModel;
    comparison = await compareServers({ model: nfs, file: "artifacts/model.json", sha256: "a".repeat(64) }, SMALL);
  }, 120_000);

  it("ranks the policies of every cell with the fitted server, Azur's and an ideal one, naming each model", async () => {
    expect(comparison.servers.map((s) => [s.key, s.model?.file ?? null])).toEqual([
      ["fitted", "artifacts/model.json"],
      ["azur", "paper"],
      ["ideal", null],
    ]);
    expect(comparison.servers[0]!.model).toMatchObject({ sha256: "a".repeat(64), form: nfs.form, outsideDomain: "clamp", volume: "whole" });
    for (const sim of [comparison.bkt, comparison.das06]) {
      expect(sim.cells).toHaveLength(1);
      for (const key of ["fitted", "azur", "ideal"] as const) {
        const o = sim.cells[0]!.outcomes[key];
        expect(o.notApplicable, `${sim.metric.name} ${key}`).toBeUndefined();
        expect([...o.ranking].sort()).toEqual([...sim.policies].sort());
        // Ranked from best to worst by the metric's mean.
        for (let i = 1; i < o.ranking.length; i++) expect(o.policies[o.ranking[i]!]!.mean).toBeGreaterThanOrEqual(o.policies[o.ranking[i - 1]!]!.mean);
        expect(o.server === null).toBe(key === "ideal");
      }
    }
    // Same parameters, same model: the same artifact, byte for byte.
    expect(JSON.stringify(await compareServers({ model: nfs, file: "artifacts/model.json", sha256: "a".repeat(64) }, SMALL))).toBe(JSON.stringify(comparison));
  });

  it("reports a model that cannot price the load as not applicable there, with its reason, and ranks the others", async () => {
    const broken: BandwidthModel = { ...PAPER_MODEL, name: "broken", coefficients: { ...PAPER_MODEL.coefficients, e: -1000 } };
    const result = await compareServers({ model: broken, file: "artifacts/model.json", sha256: "b".repeat(64) }, { ...SMALL, das06: { ...SMALL.das06, machineSets: [] } });
    const cell = result.bkt.cells[0]!;
    expect(cell.outcomes.fitted).toMatchObject({ ranking: [], policies: {}, notApplicable: expect.stringMatching(/the server model "broken" \(artifacts\/model\.json, sha256 b{12}…\) gives bw = -\d+.* no usable bandwidth/) });
    expect(cell.outcomes.ideal.ranking).toHaveLength(3);
    const section = buildReportContent({ paperModel: PAPER_MODEL, serverComparison: result }, { ...DEFAULT_REPORT, cluster: "mine" }).sections.find((s) => s.id === "server-policies")!;
    expect(section.notes).toEqual([expect.stringMatching(/^\[BKT\], 40 clients, 10 jobs, mine \(paper fit\) server: not applicable — the server model "broken"/)]);
  });

  it("becomes a report section: a figure per simulator (valid Vega-Lite, rendered without warnings), the ranking table, a line of the summary", async () => {
    const content = buildReportContent({ paperModel: PAPER_MODEL, serverComparison: comparison }, { ...DEFAULT_REPORT, cluster: "nfs8" });
    const section = content.sections.find((s) => s.id === "server-policies")!;
    expect(section.title).toBe("Which checkpoint policy with nfs8's server");
    expect(section.figures.map((f) => f.id)).toEqual(["server-policies-das06", "server-policies-bkt"]);
    for (const figure of section.figures) {
      expect(checkVegaLiteSpec(figure.spec).errors).toEqual([]);
      expect((await renderSvg(figure.spec)).warnings).toEqual([]);
    }
    const table = section.tables[0]!;
    expect(table.rows.map((r) => [r.grid, r.server])).toEqual([
      ["[DAS06]", `nfs8 (${nfs.form} fit)`],
      ["[DAS06]", "Azur ([Y11] eq. 4)"],
      ["[DAS06]", "ideal"],
      ["[BKT]", `nfs8 (${nfs.form} fit)`],
      ["[BKT]", "Azur ([Y11] eq. 4)"],
      ["[BKT]", "ideal"],
    ]);
    expect(section.intro).toMatch(/\[DAS06\], M04, 25 tasks of 1800 s: (the first place changes with the server|the same policy comes first with every server)/);
    expect(content.summary.find((i) => i.label === "Policies with this server")!.text).toContain("[BKT], 40 clients, 10 jobs:");
  });
});

describe("in the pipeline", () => {
  it("runs in the report about a user's traces only, on the fitted model, before the report", () => {
    expect(STAGES.map((s) => s.name)).not.toContain("simulate-servers");
    const CLUSTER_STAGES = pipelinePlan("cluster", false).stages;
    const names = CLUSTER_STAGES.map((s) => s.name);
    expect(names.indexOf("simulate-servers")).toBe(names.length - 2);
    expect(CLUSTER_STAGES.find((s) => s.name === "simulate-servers")!.inputs).toEqual(["model"]);
    expect(CLUSTER_STAGES.find((s) => s.name === "report")!.inputs).toContain("server-comparison?");
  });
});

const DEFAULT_REPORT = { cluster: "", reproduction: { bandwidthRelative: 0.05, peakM: 1 } };
