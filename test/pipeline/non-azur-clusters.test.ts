/**
 * A new cluster, end to end: `ckpt pipeline --traces mine.csv --cluster NAME` on traces of
 * clusters unlike Azur (from the seeded generators of pipeline/ingest/synthetic-cluster.ts)
 * gives a report about that cluster alone — the form of bw(m, V) cross-validation chose,
 * ScheduleCkpt, its campaigns and the DP placer with that model, the summary naming the
 * model behind each number and every use outside the fitted domain, Azur once as a
 * comparison, nothing from the project's sample traces — draws its figures on that cluster's
 * range and never on an empty domain, and says what the model cannot be used for: exit 0
 * with warnings, or exit 1 under --strict with the previous report left whole.
 */
import { readdirSync, readFileSync, rmSync, writeFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { syntheticClusterCsv, type ClusterShape, type SyntheticClusterOptions } from "../../pipeline/ingest/synthetic-cluster";
import { runCli } from "../cli-io";
import { WHOLE_PIPELINE_TIMEOUT_MS } from "../helpers";

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function traceOf(options: SyntheticClusterOptions): { dir: string; trace: string } {
  const dir = mkdtempSync(join(tmpdir(), "ckpt-cluster-"));
  dirs.push(dir);
  const trace = join(dir, "trace.csv");
  writeFileSync(trace, syntheticClusterCsv(options));
  return { dir, trace };
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

/** No NaN, no Infinity, in any JSON, CSV or LaTeX output (the page's data are its figures' specs, checked as .vl.json). */
function expectFiniteOutputs(out: string): void {
  for (const file of filesUnder(out).filter((f) => /\.(json|csv|tex)$/.test(f))) {
    const text = readFileSync(file, "utf8");
    expect(text, file).not.toMatch(/\bNaN\b|-?Infinity\b/);
  }
}

interface ReportArtifact {
  title: string;
  cluster: string;
  summary: { label: string; text: string }[];
  sections: { id: string; title: string; figures: string[]; tables: string[]; notes: string[] }[];
  reproduction: unknown[];
}

const json = (path: string) => JSON.parse(readFileSync(path, "utf8"));
const reportOf = (out: string) => json(join(out, "artifacts", "report.json")) as ReportArtifact;
const summaryText = (report: ReportArtifact, label: string) => report.summary.find((item) => item.label === label)?.text ?? "";

async function pipeline(trace: string, out: string, ...extra: string[]) {
  return runCli(["pipeline", "--traces", trace, "--out", out, "--param", "place.simulations=2000", ...extra]);
}

describe("a report about the user's cluster (ckpt pipeline --traces … --cluster …)", () => {
  it("a parallel file system saturating near 950 MB/s: its own model everywhere, Azur once, nothing of the sample traces", async () => {
    const { dir, trace } = traceOf({ shape: "saturate", seed: 1, repetitions: 4 });
    const out = join(dir, "report");
    const run = await pipeline(trace, out, "--cluster", "pfs");
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toMatch(/Infinite extent/);
    const report = reportOf(out);
    expect(report.title).toBe("Checkpointing on pfs: ckpt-lab report");

    // Only the cluster's stages ran, and no file of the project's samples was read.
    const manifest = json(join(out, "manifest.json")) as { stages: { name: string }[]; inputs: { path: string }[] };
    expect(manifest.stages.map((s) => s.name)).toEqual(["ingest", "fit", "turn-down", "schedule", "place", "simulate-servers", "report"]);
    expect(manifest.inputs.map((i) => i.path).filter((p) => p.startsWith("data/traces") || p.startsWith("data/schedule"))).toEqual([]);
    const html = readFileSync(join(out, "index.html"), "utf8");
    for (const sample of ["synthetic-azur", "vm-2vcpu", "nfs-8x100mbit"]) expect(html).not.toContain(sample);

    // Sections: the cluster's, Azur once as a labelled comparison (and as one of the servers the desktop grids are run with), no reproduction.
    expect(report.sections.map((s) => s.id)).toEqual(["measured", "fitted-model", "azur-comparison", "schedule", "plans-that-hold", "place", "server-policies"]);
    expect(report.sections.filter((s) => /Azur/.test(s.title)).map((s) => s.title)).toEqual(["pfs against the published Azur model"]);
    // The fitted model carries a predictive part: its band, the mean and confident plans, and the replay (issue 34).
    const hold = report.sections.find((s) => s.id === "plans-that-hold")!;
    expect(hold.figures).toEqual(expect.arrayContaining(["prediction-band"]));
    expect(hold.tables).toEqual(["plans-mean-confident"]);
    expect(report.reproduction).toEqual([]);
    expect(readdirSync(join(out, "figures")).filter((f) => /^(paper-model|machine|nfs|bkt|das06)-/.test(f))).toEqual([]);

    // The form was chosen by cross-validation, and every stage that takes a model used it.
    const model = json(join(out, "artifacts", "model.json")) as { name: string; form: string; selection: { chosen: string; candidates: { form: string }[] } };
    expect(model.selection.chosen).toBe(model.form);
    expect(model.selection.candidates.map((c) => c.form)).toEqual(["paper", "full", "usl", "link-capacity", "empirical"]);
    const fitted = report.sections.find((s) => s.id === "fitted-model")!;
    expect(fitted.figures).toContain("fitted-model-candidates");
    expect(fitted.tables).toContain("fitted-model-candidates");
    expect(json(join(out, "artifacts", "campaign.json")).settings.model).toBe(model.name);
    expect(json(join(out, "artifacts", "schedule-example.json")).model).toBe(model.name);
    const placements = json(join(out, "artifacts", "placements.json")) as { name: string; costSource: string }[];
    expect(placements.find((p) => p.name === "costs-from-model")!.costSource).toContain(`the ${model.name} bandwidth model`);

    // The summary names the model behind each number.
    const label = `model fitted to pfs (${model.form} form)`;
    for (const item of ["ScheduleCkpt", "ScheduleCkpt campaigns", "DP placer (costs-from-model)"]) expect(summaryText(report, item), item).toContain(label);
    expect(summaryText(report, "DP placer (availability)")).toMatch(/no bandwidth model/);
    expect(summaryText(report, "Forms compared")).toMatch(/CV RMSE \(MB\/s\) on the same points and folds: /);
    // Family B and C instances reach more than the 32 writers measured: said, with the policy.
    expect(summaryText(report, "Outside the fitted domain")).toMatch(/the campaigns asked the model fitted to pfs .* about sets above its fitted domain in \d+ of \d+ runs of B.* \(treated as infeasible\)/);
    expect(summaryText(report, "Outside the fitted domain")).toMatch(/the figures draw the model fitted to pfs .* up to m = 40 .* dotted and labelled "extrapolated"/);

    // Azur's published values and measured counts are not drawn next to this cluster's predictions.
    expect(readFileSync(join(out, "tables", "schedule-identical-sizes.csv"), "utf8").split("\n")[0]).not.toMatch(/measured/);
    const identical = json(join(out, "figures", "schedule-identical-sizes.vl.json"));
    expect(JSON.stringify(identical)).not.toMatch(/measured, sequential greedy/);
    expect(JSON.stringify(json(join(out, "figures", "schedule-share-by-k0.vl.json")))).not.toMatch(/published, one instance/);

    // Figures on the cluster's range: the surface reaches m = 32 and V = 65.5 GB, the curves m = 32, dotted past the domain.
    const surface = json(join(out, "figures", "fitted-model-surface.vl.json"));
    const cells = surface.layer[0].data.values as { m: number; vGb: number }[];
    expect(Math.max(...cells.map((c) => c.m))).toBeGreaterThanOrEqual(32);
    expect(Math.max(...cells.map((c) => c.vGb))).toBeGreaterThanOrEqual(65);
    const curves = json(join(out, "figures", "fitted-model-size-curves.vl.json"));
    const points = curves.layer[0].data.values as { m: number; segment: string }[];
    expect(Math.max(...points.map((c) => c.m))).toBeGreaterThanOrEqual(32);
    expect(points.filter((p) => p.m > 32).every((p) => p.segment === "extrapolated")).toBe(true);
    expect(points.filter((p) => p.m < 32).every((p) => p.segment === "within the fitted domain")).toBe(true);
    expect(fitted.figures).not.toContain("fitted-model-datasets");
    // The report about a user's traces runs the desktop grids with its fitted server (docs/science.md §6.6).
    expect(report.sections.find((s) => s.id === "server-policies")!.figures).toEqual(["server-policies-das06", "server-policies-bkt"]);
    expectFiniteOutputs(out);
  }, WHOLE_PIPELINE_TIMEOUT_MS);

  it("the papers' form on a link-limited cluster: its turn-down past the domain named as the form's artefact, with the form that follows the data", async () => {
    const { dir, trace } = traceOf({ shape: "link-flat", seed: 1, repetitions: 4 });
    const out = join(dir, "report");
    const run = await pipeline(trace, out, "--cluster", "hpc16", "--param", "fit.form=paper", "--param", "fit.allPoints=true");
    expect(run.code, run.stderr).toBe(0);
    const report = reportOf(out);
    expect(summaryText(report, "Artefact of the form")).toMatch(
      /^the paper form's curves turn down where the measurements do not: v = \d+ MB peaks at m = \d+ .* falls to .* at m = 20 \(past the fitted domain, m ≤ 16\), while its measured means stay within 5 % of their highest up to m = 16.*That fall is the form's, not the cluster's\. The link-capacity form follows the data \(fitted on every point, CV RMSE [\d.]+ MB\/s; ckpt fit --form link-capacity/,
    );
    // Under the form cross-validation chooses, no such artefact, and the candidates say which form followed.
    const auto = await pipeline(trace, out, "--cluster", "hpc16");
    expect(auto.code, auto.stderr).toBe(0);
    const chosen = reportOf(out);
    expect(summaryText(chosen, "Fitted model")).toMatch(/^link-capacity form, chosen by 5-fold cross-validation/);
    expect(summaryText(chosen, "Artefact of the form")).toBe("");
  }, WHOLE_PIPELINE_TIMEOUT_MS);

  it("a small NFS fastest with one writer, fitted in the papers' form: fitted on all points, the stall of the faithful ScheduleCkpt explained", async () => {
    const { dir, trace } = traceOf({ shape: "collapse", seed: 1, repetitions: 4 });
    const out = join(dir, "report");
    const run = await pipeline(trace, out, "--cluster", "lab NFS", "--param", "fit.form=paper");
    expect(run.code, run.stderr).toBe(0);
    const report = reportOf(out);
    expect(report.cluster).toBe("lab NFS");
    const labels = report.summary.map((item) => item.label);
    expect(labels.slice(0, 3)).toEqual(["Cluster", "Fitted model", "Note on the fit"]);
    expect(summaryText(report, "Note on the fit")).toMatch(/fitted on all \d+ points/);
    expect(summaryText(report, "Note on ScheduleCkpt")).toMatch(/idle-start admit-first/);
    expect(run.stderr).toMatch(/note: the papers' rule .* fitted on all \d+ points/);
    const html = readFileSync(join(out, "index.html"), "utf8");
    expect(html).toMatch(/Points: the fit points of the traces \S*trace\.csv \(per-\(m, v\) means, all points\)\./);
    expect(readFileSync(join(out, "tables", "fitted-model-metrics.tex"), "utf8")).toMatch(/fit points \(N\) & \d+ & count/);
    // The Gantt chart of a run that started nothing is left out, with a note.
    const schedule = report.sections.find((s) => s.id === "schedule")!;
    expect(schedule.figures).not.toContain("schedule-example-gantt");
    expect(schedule.notes.join(" ")).toMatch(/Gantt chart is not drawn: ScheduleCkpt started no checkpoint/);
    expect(run.stderr).not.toMatch(/Infinite extent/);
    expectFiniteOutputs(out);

    // With the corrected idle start the example checkpoints one at a time; under the form
    // cross-validation chooses, an idle device moves nothing (bw(0, 0) = 0) and nothing stalls.
    const admit = await pipeline(trace, out, "--param", "fit.form=paper", "--param", "schedule.idleStart=admit-first");
    expect(admit.code, admit.stderr).toBe(0);
    expect(json(join(out, "artifacts", "schedule-example.json")).scheduleCkpt.ctnys).toBeGreaterThan(0);
    const auto = await pipeline(trace, out);
    expect(auto.code, auto.stderr).toBe(0);
    expect(json(join(out, "artifacts", "model.json")).form).toBe("usl");
    expect(json(join(out, "artifacts", "schedule-example.json")).scheduleCkpt.ctnys).toBeGreaterThan(0);
  }, WHOLE_PIPELINE_TIMEOUT_MS);

  it("a cluster measured on small sizes only: scenarios beyond its domain are not applicable, fatal with --strict", async () => {
    const tiny: ClusterShape = {
      name: "tiny",
      cluster: "tiny-synthetic",
      sizesMb: [4, 8, 16],
      mValues: [1, 2, 3, 4],
      bandwidthMbPerS: (m) => 30 * m - 3 * m * m,
    };
    const { dir, trace } = traceOf({ shape: tiny, seed: 4, repetitions: 3 });
    const out = join(dir, "report");
    const run = await pipeline(trace, out);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/warning: campaign A not applicable/);
    const campaign = json(join(out, "artifacts", "campaign.json"));
    expect(campaign.notApplicable.map((n: { scenario: string }) => n.scenario)).toEqual(expect.arrayContaining(["campaign A", "campaign B", "campaign C", "campaign waves"]));
    const place = json(join(out, "artifacts", "place-not-applicable.json"));
    expect(place).toEqual([{ scenario: "costs-from-model", reason: expect.stringMatching(/outside its fitted domain m ∈ \[1, 4\], V ∈ \[0\.004, 0\.064\] GB/) }]);
    const html = readFileSync(join(out, "index.html"), "utf8");
    expect(html).toMatch(/Not applicable: costs-from-model/);
    expect(summaryText(reportOf(out), "Outside the fitted domain")).toMatch(/campaign A not run: .*DP placer scenario costs-from-model not run: /);
    expectFiniteOutputs(out);

    const before = readFileSync(join(out, "index.html"));
    const strict = await pipeline(trace, out, "--strict", "--force");
    expect(strict.code).toBe(1);
    expect(strict.stderr).toMatch(/scenario "campaign A" is not applicable/);
    expect(readFileSync(join(out, "index.html"))).toEqual(before);
    expect(readdirSync(dir).sort()).toEqual(["report", "trace.csv"]);
  }, WHOLE_PIPELINE_TIMEOUT_MS);

  it("--with reproduction adds the papers' campaigns with the published model, the simulators and the reproduction table, still without the sample traces", async () => {
    const { dir, trace } = traceOf({ shape: "collapse", seed: 2, repetitions: 3 });
    const out = join(dir, "report");
    const run = await pipeline(trace, out, "--with", "reproduction");
    expect(run.code, run.stderr).toBe(0);
    const manifest = json(join(out, "manifest.json")) as { stages: { name: string }[]; inputs: { path: string }[] };
    expect(manifest.stages.map((s) => s.name)).toEqual(["ingest", "fit", "turn-down", "schedule", "place", "schedule-paper", "simulate-bkt", "simulate-das06", "investigations", "simulate-servers", "reproduce", "report"]);
    expect(manifest.inputs.map((i) => i.path).filter((p) => p.startsWith("data/traces"))).toEqual([]);
    const report = reportOf(out);
    expect(report.sections.map((s) => s.id)).toEqual(expect.arrayContaining(["azur-comparison", "schedule", "paper-model", "reproduction"]));
    expect(report.sections.map((s) => s.id)).not.toEqual(expect.arrayContaining(["machine"]));
    // The reproduction's ScheduleCkpt rows come from the published model's campaign, the cluster's section from its own.
    const rows = report.reproduction as { id: string }[];
    expect(rows.some((r) => r.id.startsWith("schedule/"))).toBe(true);
    expect(json(join(out, "artifacts", "paper-campaign.json")).settings.model).toBe("paper");
    expect(json(join(out, "artifacts", "campaign.json")).settings.model).not.toBe("paper");
    expect((await runCli(["pipeline", "--with", "reproduction", "--out", join(dir, "x")])).code).toBe(2);
  }, WHOLE_PIPELINE_TIMEOUT_MS);
});
