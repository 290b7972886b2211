/**
 * A new cluster, end to end: the pipeline on traces of clusters unlike Azur (from the
 * seeded generators of pipeline/ingest/synthetic-cluster.ts) gives a full report, names the
 * cluster, draws its figures on that cluster's range and never on an empty domain, and says
 * what the model cannot be used for — exit 0 with warnings, or exit 1 under --strict with the
 * previous report left whole.
 */
import { readdirSync, readFileSync, rmSync, writeFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { syntheticClusterCsv, type ClusterShape, type SyntheticClusterOptions } from "../../pipeline/ingest/synthetic-cluster";
import { runCli } from "../cli-io";

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
  sections: { id: string; figures: string[]; notes: string[] }[];
}

async function pipeline(trace: string, out: string, ...extra: string[]) {
  return runCli(["pipeline", "--traces", trace, "--out", out, "--param", "schedule.model=fitted", "--param", "place.simulations=2000", ...extra]);
}

describe("the pipeline on clusters unlike Azur", () => {
  it("a parallel file system saturating near 950 MB/s, 32 writers, 65 GB: figures on its range, cluster named", async () => {
    const { dir, trace } = traceOf({ shape: "saturate", seed: 1, repetitions: 4 });
    const out = join(dir, "report");
    const run = await pipeline(trace, out);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toMatch(/Infinite extent/);
    const report = JSON.parse(readFileSync(join(out, "artifacts", "report.json"), "utf8")) as ReportArtifact;
    expect(report.cluster).toBe("pfs-synthetic");
    expect(report.title).toContain("pfs-synthetic");
    const html = readFileSync(join(out, "index.html"), "utf8");
    expect(html).toContain("<title>Checkpointing on pfs-synthetic: ckpt-lab report</title>");
    // The summary comes first, and the fitted model's card names the cluster.
    expect(html.indexOf('id="summary"')).toBeLessThan(html.indexOf('id="measured"'));
    expect(html.indexOf('id="reproduction"')).toBeGreaterThan(html.indexOf('id="fitted-model"'));
    expect(readFileSync(join(out, "tables", "fitted-model-card.csv"), "utf8")).toContain("cluster,pfs-synthetic");
    // The surface reaches the cluster's m = 32 and V = 65.5 GB.
    const surface = JSON.parse(readFileSync(join(out, "figures", "fitted-model-surface.vl.json"), "utf8"));
    const cells = surface.layer[0].data.values as { m: number; vGb: number }[];
    expect(Math.max(...cells.map((c) => c.m))).toBeGreaterThanOrEqual(32);
    expect(Math.max(...cells.map((c) => c.vGb))).toBeGreaterThanOrEqual(65);
    const curves = JSON.parse(readFileSync(join(out, "figures", "fitted-model-size-curves.vl.json"), "utf8"));
    expect(Math.max(...(curves.layer[0].data.values as { m: number }[]).map((c) => c.m))).toBeGreaterThanOrEqual(32);
    // The report about a user's traces runs the desktop grids with its fitted server (docs/science.md §6.6).
    expect(report.sections.find((s) => s.id === "server-policies")!.figures).toEqual(["server-policies-das06", "server-policies-bkt"]);
    // No D1–D3 figure for a cluster whose traces hold no such runs.
    expect(report.sections.find((s) => s.id === "fitted-model")!.figures).not.toContain("fitted-model-datasets");
    expectFiniteOutputs(out);
  }, 180_000);

  it("a small NFS fastest with one writer: fitted on all points, the stall of the faithful ScheduleCkpt explained", async () => {
    const { dir, trace } = traceOf({ shape: "collapse", seed: 1, repetitions: 4 });
    const out = join(dir, "report");
    const run = await pipeline(trace, out, "--cluster", "lab NFS");
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(readFileSync(join(out, "artifacts", "report.json"), "utf8")) as ReportArtifact;
    expect(report.cluster).toBe("lab NFS");
    const labels = report.summary.map((item) => item.label);
    expect(labels.slice(0, 3)).toEqual(["Cluster", "Fitted model", "Note on the fit"]);
    expect(report.summary.find((i) => i.label === "Note on the fit")!.text).toMatch(/fitted on all \d+ points/);
    expect(report.summary.find((i) => i.label === "Note on ScheduleCkpt")!.text).toMatch(/idle-start admit-first/);
    // The fits' notes are printed as the stages run, the machine's poor fit in its section too.
    expect(run.stderr).toMatch(/note: the papers' rule .* fitted on all \d+ points/);
    expect(run.stderr).toMatch(/note: poor fit: R² = 0\.\d+ \(warned below 0\.9\)/);
    expect(report.sections.find((s) => s.id === "machine")!.notes.join(" ")).toMatch(/poor fit: R² = /);
    // The surface says which points were fitted; counts are printed whole.
    const html = readFileSync(join(out, "index.html"), "utf8");
    expect(html).toMatch(/Points: the fit points of the traces \S*trace\.csv \(per-\(m, v\) means, all points\)\./);
    expect(readFileSync(join(out, "tables", "fitted-model-metrics.tex"), "utf8")).toMatch(/fit points \(N\) & \d+ & count/);
    // The Gantt chart of a run that started nothing is left out, with a note.
    const schedule = report.sections.find((s) => s.id === "schedule")!;
    expect(schedule.figures).not.toContain("schedule-example-gantt");
    expect(schedule.notes.join(" ")).toMatch(/Gantt chart is not drawn: ScheduleCkpt started no checkpoint/);
    expect(run.stderr).not.toMatch(/Infinite extent/);
    expectFiniteOutputs(out);

    // With the corrected idle start the example checkpoints one at a time.
    const admit = await pipeline(trace, out, "--param", "schedule.idleStart=admit-first");
    expect(admit.code, admit.stderr).toBe(0);
    const example = JSON.parse(readFileSync(join(out, "artifacts", "schedule-example.json"), "utf8"));
    expect(example.scheduleCkpt.ctnys).toBeGreaterThan(0);
  }, 180_000);

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
    const campaign = JSON.parse(readFileSync(join(out, "artifacts", "campaign.json"), "utf8"));
    expect(campaign.notApplicable.map((n: { scenario: string }) => n.scenario)).toEqual(expect.arrayContaining(["campaign A", "campaign B", "campaign C", "campaign waves"]));
    const place = JSON.parse(readFileSync(join(out, "artifacts", "place-not-applicable.json"), "utf8"));
    expect(place).toEqual([{ scenario: "costs-from-model", reason: expect.stringMatching(/outside its fitted domain m ∈ \[1, 4\], V ∈ \[0\.004, 0\.064\] GB/) }]);
    const html = readFileSync(join(out, "index.html"), "utf8");
    expect(html).toMatch(/Not applicable: costs-from-model/);
    expectFiniteOutputs(out);

    const before = readFileSync(join(out, "index.html"));
    const strict = await pipeline(trace, out, "--strict", "--force");
    expect(strict.code).toBe(1);
    expect(strict.stderr).toMatch(/scenario "campaign A" is not applicable/);
    expect(readFileSync(join(out, "index.html"))).toEqual(before);
    expect(readdirSync(dir).sort()).toEqual(["report", "trace.csv"]);
  }, 180_000);
});
