/**
 * Every notebook of notebooks/ runs top to bottom headlessly (tslab kernel through
 * nbconvert), importing the freshly built library, and shows its figures as the Vega-Lite
 * v5 bundle plus PNG.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cellSource, listNotebooks, runNotebook, type Notebook } from "../../pipeline/notebook";
import { PAPER_MODEL } from "../../pipeline/fit/model";
import { modelReproductionRows } from "../../pipeline/reproduce/model-reproduction-rows";
import { reproductionCountsText } from "../../pipeline/reproduce/reproduction";
import { VEGA_LITE_MIME } from "../../pipeline/report/render/notebook-display";
import { syntheticClusterCsv } from "../../pipeline/ingest/synthetic-cluster";
import { projectRoot } from "../../pipeline/shared/version";

const out = mkdtempSync(join(tmpdir(), "ckpt-notebooks-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

type Output = { output_type: string; name?: string; text?: string[]; data?: Record<string, unknown>; metadata?: Record<string, unknown> };
const outputsOf = (notebook: Notebook) => notebook.cells.flatMap((c) => (c.outputs ?? []) as Output[]);

beforeAll(() => {
  // Notebooks import dist/ (the built library): build it from the sources under test.
  execFileSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", projectRoot()], { stdio: "inherit" });
}, 120_000);

describe("notebooks", () => {
  const names = listNotebooks();

  it("exist", () => {
    expect(names).toEqual(["01-recalibrate-bandwidth", "02-schedule-before-release", "03-place-checkpoints", "04-reproduce-the-papers", "05-desktop-grid", "06-institutional-grid"]);
  });

  it.each(names)("%s runs headlessly and displays its figures", async (name) => {
    // Notebooks that write files write them to the test's folder.
    const parameters: Record<string, unknown> =
      name === "04-reproduce-the-papers" ? { peakTolerance: 2, seeds: 20 } : name === "01-recalibrate-bandwidth" ? { modelOut: join(out, "01-model.json") } : {};
    const run = await runNotebook(name, { outDir: out, parameters, html: name === "04-reproduce-the-papers" });
    const executed = JSON.parse(readFileSync(run.output, "utf8")) as Notebook;
    const outputs = outputsOf(executed);
    expect(outputs.filter((o) => o.output_type === "error" || o.name === "stderr")).toEqual([]);
    const charts = outputs.filter((o) => o.data?.[VEGA_LITE_MIME] !== undefined);
    expect(charts.length).toBeGreaterThan(0);
    for (const chart of charts) {
      expect(Object.keys(chart.data!).sort()).toEqual([VEGA_LITE_MIME, "image/png", "text/plain"]);
      expect((chart.data![VEGA_LITE_MIME] as { $schema: string }).$schema).toMatch(/vega-lite\/v5\.json$/);
      // Shown at least 480 px wide, from a PNG with twice those pixels (IHDR width at byte 16).
      const shownWidth = (chart.metadata?.["image/png"] as { width: number }).width;
      expect(shownWidth).toBeGreaterThanOrEqual(480);
      expect(Math.abs(Buffer.from(chart.data!["image/png"] as string, "base64").readUInt32BE(16) - 2 * shownWidth)).toBeLessThanOrEqual(1);
    }
    if (name === "04-reproduce-the-papers") {
      // The parameter reached the notebook: its verdict counts are those of the library with peakTolerance = 2.
      expect(cellSource(executed.cells.find((c) => c.id === "injected-parameters")!)).toContain("peakTolerance = 2;");
      const rows = modelReproductionRows(PAPER_MODEL, { modelLabel: "published model", peakM: 2 });
      const printed = outputs.flatMap((o) => o.text ?? []).join("");
      // Counted as the report counts: findings, self-checks apart (the model's rows are all findings).
      const matches = rows.filter((r) => r.verdict === "match").length;
      expect(reproductionCountsText(rows)).toMatch(new RegExp(`^${rows.length} findings \\(${matches} match, .*; 0 self-checks`));
      expect(printed).toContain(reproductionCountsText(rows));
      expect(readFileSync(run.html!, "utf8").match(/<img src="data:image\/png;base64,/g)!.length).toBeGreaterThanOrEqual(charts.length);
    }
    if (name === "01-recalibrate-bandwidth") {
      // The saved model is a valid artifact that names the traces it was fitted on.
      const model = JSON.parse(readFileSync(join(out, "01-model.json"), "utf8")) as { schema: string; provenance: { inputs: { path: string }[] } };
      expect(model.schema).toBe("ckpt-lab/bandwidth-model@1");
      expect(model.provenance.inputs.map((i) => i.path)).toEqual(["data/traces/synthetic-azur.csv"]);
    }
  }, 300_000);

  it("01 on a cluster of one's own: the candidates, the choice, and the papers' form's turn-down named as its artefact", async () => {
    // 16 nodes held to their links, then to the server (ckpt synth --shape link-flat): not Azur, not any of the forms.
    const trace = join(out, "hpc16.csv");
    writeFileSync(trace, syntheticClusterCsv({ shape: "link-flat", seed: 3, repetitions: 3 }));
    const run = await runNotebook("01-recalibrate-bandwidth", { outDir: out, parameters: { traces: trace, groupBy: "", modelOut: join(out, "hpc16-model.json") } });
    const executed = JSON.parse(readFileSync(run.output, "utf8")) as Notebook;
    const outputs = outputsOf(executed);
    expect(outputs.filter((o) => o.output_type === "error" || o.name === "stderr")).toEqual([]);
    const printed = outputs.flatMap((o) => o.text ?? []).join("");
    expect(printed).toMatch(/^chosen: link-capacity — lowest score, the larger of the 5-fold CV relative RMSE and the relative error at the largest measured m fitted without it: link-capacity/m);
    expect(printed).toMatch(/^paper: v = \d+ MB peaks at m = \d+ and falls to [\d.]+ MB\/s at m = 20 \(past the domain\) while its means stay flat/m);
    expect(printed).toMatch(/^link-capacity: no curve turns down where the measured means do not$/m);
    const charts = outputs.filter((o) => o.data?.[VEGA_LITE_MIME] !== undefined).map((o) => (o.data![VEGA_LITE_MIME] as { facet?: unknown }));
    expect(charts.some((spec) => spec.facet !== undefined)).toBe(true); // the candidates over the measured means
    expect(JSON.parse(readFileSync(join(out, "hpc16-model.json"), "utf8"))).toMatchObject({ form: "link-capacity", selection: { chosen: "link-capacity" } });
  }, 300_000);

  it("reports the failing cell and keeps the partial copy when a cell fails", async () => {
    const broken: Notebook = {
      cells: [
        { cell_type: "code", id: "ok", metadata: {}, source: 'import { fit } from "ckpt-lab";\nconsole.log(fit.PAPER_MODEL.name);', outputs: [], execution_count: null },
        { cell_type: "code", id: "bad", metadata: {}, source: "const n: number = fit.PAPER_MODEL.name;", outputs: [], execution_count: null },
      ],
      metadata: { kernelspec: { name: "tslab", display_name: "TypeScript", language: "typescript" } },
      nbformat: 4,
      nbformat_minor: 5,
    };
    const path = join(out, "broken.ipynb");
    writeFileSync(path, JSON.stringify(broken));
    await expect(runNotebook(path, { outDir: out })).rejects.toThrow(/broken.ipynb failed:\ncell 2:\n {4}const n: number = fit.PAPER_MODEL.name;\n→ .*Type 'string' is not assignable to type 'number'/);
    const partial = JSON.parse(readFileSync(join(out, "broken.failed.ipynb"), "utf8")) as Notebook;
    expect(outputsOf(partial).flatMap((o) => o.text ?? []).join("")).toContain("paper");
  }, 300_000);
});
