/**
 * A report about a cluster from what a storage team already has (issue: the field's own
 * benchmarks): `ckpt pipeline --traces ior-results/ --cluster NAME` on a folder of IOR
 * results, and on fio's, both of one size per writer, the usual shape of a published
 * scaling study (docs/science.md §3.5.1–3.5.2). The fit gives the m-dependence at that size
 * and says so; everything downstream prices that size only: ScheduleCkpt's example is made
 * of it, and what needs other sizes (the papers' campaigns of 100–500 MB images, the DP's
 * costs from the model) is said not to be applicable, with the domain, never run on
 * extrapolations. The reference values are the measured files themselves, read here by
 * hand: IOR's Results lines (MiB/s × 1.048576), fio's groups' `bw_bytes`.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../cli-io";
import { WHOLE_PIPELINE_TIMEOUT_MS } from "../helpers";

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const json = (path: string) => JSON.parse(readFileSync(path, "utf8"));

interface ReportArtifact {
  cluster: string;
  summary: { label: string; text: string }[];
  sections: { id: string }[];
}

/** A copy of the shipped example folder under the name a user would give it. */
function resultsFolder(example: string, name: string): { dir: string; results: string } {
  const dir = mkdtempSync(join(tmpdir(), "ckpt-benchmarks-"));
  dirs.push(dir);
  const results = join(dir, name);
  mkdirSync(results);
  cpSync(join("data", "examples", example), results, { recursive: true });
  return { dir, results };
}

/** Mean per key, rounded to 6 significant digits for comparison. */
function meansBy(pairs: [number, number][]): Record<number, number> {
  const sums = new Map<number, [number, number]>();
  for (const [key, value] of pairs) {
    const [sum, count] = sums.get(key) ?? [0, 0];
    sums.set(key, [sum + value, count + 1]);
  }
  return Object.fromEntries([...sums].map(([key, [sum, count]]) => [key, Number((sum / count).toPrecision(6))]));
}

/** `ckpt pipeline --traces <results> --cluster NAME` on a copy of a shipped example; its report artifact. */
async function reportOn(example: string, folder: string, cluster: string): Promise<{ results: string; out: string; report: ReportArtifact }> {
  const { dir, results } = resultsFolder(example, folder);
  const out = join(dir, "report");
  const run = await runCli(["pipeline", "--traces", results, "--cluster", cluster, "--out", out, "--param", "place.simulations=2000"]);
  expect(run.code, run.stderr).toBe(0);
  const report = json(join(out, "artifacts", "report.json")) as ReportArtifact;
  expect(report.cluster).toBe(cluster);
  return { results, out, report };
}

function expectOneSizeDownstream(out: string, report: ReportArtifact, writerMb: number): void {
  const summary = (label: string) => report.summary.filter((item) => item.label === label).map((item) => item.text);
  // ScheduleCkpt's example is made of the one measured size, and it runs.
  const example = json(join(out, "artifacts", "schedule-example.json")) as { scheduleCkpt: { apps: { sizeMb: number }[]; checkpointed: string[] } };
  const apps = example.scheduleCkpt.apps;
  expect(apps.length).toBeGreaterThan(0);
  for (const app of apps) expect(app.sizeMb).toBeCloseTo(writerMb, 6);
  // T is half the time to write them all at the best predicted bandwidth: the choice matters.
  expect(example.scheduleCkpt.checkpointed.length).toBeGreaterThan(0);
  expect(example.scheduleCkpt.checkpointed.length).toBeLessThan(apps.length);
  expect(summary("ScheduleCkpt")[0]).toMatch(/the one size per writer it was fitted on/);
  // The papers' campaigns (100–500 MB images) cannot be priced at that size: said, with the domain.
  const notApplicable = summary("Not applicable").join("\n");
  for (const family of ["A", "B", "C"]) {
    expect(notApplicable).toMatch(new RegExp(`campaign ${family}: .*only \\(one size per writer measured\\)`));
  }
  expect(notApplicable).toMatch(/DP placer, costs-from-model: .*outside its fitted domain/);
  // No NaN or Infinity in any output a paper could take.
  for (const entry of readdirSync(out, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !/\.(json|csv|tex)$/.test(entry.name)) continue;
    expect(readFileSync(join(entry.parentPath, entry.name), "utf8"), entry.name).not.toMatch(/\bNaN\b|-?Infinity\b/);
  }
}

describe("a report from IOR or fio results (ckpt pipeline --traces <results folder> --cluster NAME)", () => {
  it("IOR's scaling run (1, 2, 4 tasks of 4 MiB, twice each): the empirical form at the measured size, without cross-validation, said", async () => {
    const { results, out, report } = await reportOn("ior", "ior-results", "ior-lab");
    expect(report.sections.map((s) => s.id)).toContain("fitted-model");
    expect(report.summary.find((s) => s.label === "Cluster")!.text).toMatch(/ior-4\.0\.0-scaling\.txt; 6 rows read, 6 accepted, 0 rejected/);

    // Three cells are too few for 5 folds: no form is cross-validated, the empirical one is kept and the note says so.
    const model = json(join(out, "artifacts", "model.json")) as { form: string; domain: Record<string, number>; coefficients: Record<string, number>; notes: string[] };
    expect(model.form).toBe("empirical");
    expect(model.notes.join("\n")).toMatch(/kept without cross-validation/);
    expect(model.domain.writerGbMin).toBe(0.004194304);
    expect(model.domain.writerGbMax).toBe(0.004194304);
    // Its cells are the measured means: IOR's write lines, MiB/s × 1.048576 = MB/s.
    const text = readFileSync(join(results, "ior-4.0.0-scaling.txt"), "utf8");
    const pairs: [number, number][] = [];
    let tasks = 0;
    for (const line of text.split("\n")) {
      const header = /^tasks\s+:\s+(\d+)/.exec(line);
      if (header) tasks = Number(header[1]);
      const write = /^write\s+([\d.]+)\s+[\d.]+\s+[\d.]+\s+4096\s/.exec(line);
      if (write) pairs.push([tasks, Number(write[1]) * 1.048576]);
    }
    expect(pairs).toHaveLength(6);
    const measured = meansBy(pairs);
    const c = model.coefficients;
    const fitted = Object.fromEntries([1, 2, 3].map((i) => [c[`m_${i}`]!, Number(c[`bw_${i}`]!.toPrecision(6))]));
    expect(fitted).toEqual(measured); // { 1: 387.234, 2: 521.929, 4: 730.648 }
    expectOneSizeDownstream(out, report, 4.194304);
  }, WHOLE_PIPELINE_TIMEOUT_MS);

  it("fio's scaling run (1–16 writers of 32 MiB, three repetitions): a smooth form's m-dependence at that size, its size exponents held", async () => {
    const { results, out, report } = await reportOn("fio-one-size", "fio-results", "fio-lab");

    const model = json(join(out, "artifacts", "model.json")) as { form: string; domain: Record<string, number>; notes: string[]; coefficients: Record<string, number> };
    expect(["usl", "link-capacity"]).toContain(model.form);
    expect(model.domain.writerGbMin).toBeCloseTo(0.033554432, 12);
    expect(model.domain.writerGbMax).toBe(model.domain.writerGbMin);
    expect(model.notes.join("\n")).toMatch(/one size per writer \(V\/m = 33\.5544 MB\): the .* form's m-dependence alone is fitted, with .* held at 0/);
    expect(report.summary.filter((s) => s.label === "Note on the fit").map((s) => s.text).join("\n")).toMatch(/one size per writer/);

    // The fit follows fio's own numbers: each group's bw_bytes, averaged over the three files, within 25 % at every m.
    const pairs: [number, number][] = [];
    for (const file of readdirSync(results).filter((f) => f.endsWith(".json"))) {
      for (const job of json(join(results, file)).jobs as { "job options": { numjobs: string }; write: { bw_bytes: number } }[]) {
        pairs.push([Number(job["job options"].numjobs), job.write.bw_bytes / 1e6]);
      }
    }
    const measured = meansBy(pairs);
    expect(Object.keys(measured).map(Number).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 6, 8, 12, 16]);
    const points = (json(join(out, "artifacts", "fit.json")) as { residuals: { m: number[]; observedMbPerS: number[]; predictedMbPerS: number[] } }).residuals;
    expect(points.m).toHaveLength(8);
    points.m.forEach((m, i) => expect(points.observedMbPerS[i]!, `m = ${m}`).toBeCloseTo(measured[m]!, 2));
    points.m.forEach((m, i) => expect(Math.abs(points.predictedMbPerS[i]! / measured[m]! - 1), `m = ${m}`).toBeLessThan(0.25));
    expectOneSizeDownstream(out, report, 33.554432);
  }, WHOLE_PIPELINE_TIMEOUT_MS);
});
