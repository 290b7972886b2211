/**
 * The pipeline's promise: same inputs, same bytes. Two runs into two fresh folders must
 * give identical trees, file by file, with no trace of where they were written — except
 * the outputs the manifest marks volatile (measured durations) and the runner's own
 * bookkeeping of their hashes and of the files' stat (inodes, times); a rerun into the same
 * folder must skip every stage and leave every other byte in place. And the papers'
 * reproduction stays what is committed in fixtures/report-data.json: every reproduction row's
 * value and verdict, and the numbers (to 12 digits) of every figure's spec (its data), table, reproduction.json
 * and report artifact, so that moving code between stages cannot change a number unseen.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runPipeline } from "../../pipeline/run";
import { FILE_HASHES_PATH } from "../../pipeline/runner/run-stages";
import { sha256OfFile } from "../../pipeline/shared/hash";
import { projectRoot } from "../../pipeline/shared/version";
import { WHOLE_PIPELINE_TIMEOUT_MS } from "../helpers";

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else out[relative(dir, path)] = sha256OfFile(path);
    }
  };
  walk(dir);
  return out;
}

const REPORT_DATA = "test/pipeline/fixtures/report-data.json";

interface ReportData {
  "//": string;
  /** id, ours, verdict of every reproduction row, in the table's order. */
  rows: [string, number | null, string][];
  /** sha256 of every figure spec, table CSV, reproduction.json and artifacts/report.json. */
  sha256: Record<string, string>;
}

/** What a report folder says, as the fixture holds it (the volatile outputs left out). */
function reportData(dir: string, hashes: Record<string, string>, volatile: readonly string[], note: string): ReportData {
  const kept = Object.keys(hashes)
    .filter((p) => /^figures\/.*\.vl\.json$|^tables\/.*\.csv$/.test(p) || p === "reproduction.json" || p === "artifacts/report.json")
    .filter((p) => !volatile.includes(p))
    .sort();
  const rows = (JSON.parse(readFileSync(join(dir, "reproduction.json"), "utf8")) as { id: string; ours: number | null; verdict: string }[]).map((r): [string, number | null, string] => [r.id, r.ours, r.verdict]);
  return { "//": note, rows, sha256: Object.fromEntries(kept.map((p) => [p, sha256OfNumbers(join(dir, p))])) };
}

/**
 * The sha256 of a file with every decimal number written to 12 significant digits (and one
 * below 1e-12 as 0). V8's Math.exp and Math.pow differ in the last bit between Node
 * releases, so a figure's data or a table computed through them differs in its 16th digit
 * from one Node to the next (the failure laws of the place figures; RB10's gap of about
 * 1e-14 between the DP and brute force, itself rounding noise); 12 digits keep every digit
 * a page prints. Two runs on one Node are still compared byte for byte above.
 */
function sha256OfNumbers(path: string): string {
  const text = readFileSync(path, "utf8").replace(/-?\d+\.\d+(?:[eE][-+]?\d+)?|-?\d+[eE][-+]?\d+/g, (literal) => String(twelveDigits(Number(literal))));
  return createHash("sha256").update(text).digest("hex");
}

function twelveDigits(value: number): number {
  return Math.abs(value) < 1e-12 ? 0 : Number(value.toPrecision(12));
}

/** One row a line, so that a changed row is one line of the diff. */
function reportDataText(data: ReportData): string {
  const rows = data.rows.map((r) => `    ${JSON.stringify(r)}`).join(",\n");
  const files = Object.entries(data.sha256).map(([p, h]) => `    ${JSON.stringify(p)}: ${JSON.stringify(h)}`).join(",\n");
  return `{\n  "//": ${JSON.stringify(data["//"])},\n  "rows": [\n${rows}\n  ],\n  "sha256": {\n${files}\n  }\n}\n`;
}

/**
 * A row as the fixture compares it: its value to 12 significant digits, as the files'
 * numbers are (sha256OfNumbers).
 */
function comparable([id, ours, verdict]: [string, number | null, string]): [string, number | null, string] {
  return [id, ours === null ? null : twelveDigits(ours), verdict];
}

describe("pipeline outputs", () => {
  it("are byte-identical across runs and skip everything when nothing changed", async () => {
    const a = mkdtempSync(join(tmpdir(), "ckpt-report-a-"));
    const b = mkdtempSync(join(tmpdir(), "ckpt-report-b-"));
    dirs.push(a, b);
    await runPipeline({ out: a });
    await runPipeline({ out: b });
    const treeA = tree(a);
    expect(Object.keys(treeA)).toContain("index.html");
    expect(Object.keys(treeA)).toContain("manifest.json");
    expect(Object.keys(treeA).filter((p) => p.endsWith(".png")).length).toBeGreaterThanOrEqual(3);
    const manifest = JSON.parse(readFileSync(join(a, "manifest.json"), "utf8")) as { outputs: { path: string; sha256?: string; volatile?: true }[] };
    const volatile = manifest.outputs.filter((o) => o.volatile).map((o) => o.path);
    const stable = (t: Record<string, string>) => {
      const copy = { ...t };
      for (const path of [...volatile, ...(volatile.length > 0 ? [".cache/pipeline-state.json"] : [])]) delete copy[path];
      delete copy[FILE_HASHES_PATH];
      return copy;
    };
    expect(stable(tree(b))).toEqual(stable(treeA));

    // The papers' reproduction as committed (rows first: a changed value or verdict reads plainly).
    const committed = JSON.parse(readFileSync(REPORT_DATA, "utf8")) as ReportData;
    const now = reportData(a, treeA, volatile, committed["//"]);
    if (process.env.UPDATE_REPORT_DATA === "1") writeFileSync(REPORT_DATA, reportDataText(now));
    else {
      expect(now.rows.map(comparable)).toEqual(committed.rows.map(comparable));
      expect(now.sha256).toEqual(committed.sha256);
    }
    expect(Object.keys(tree(b)).sort()).toEqual(Object.keys(treeA).sort());

    const rerun = await runPipeline({ out: a });
    expect(rerun.outcomes.every((o) => !o.ran)).toBe(true);
    const withoutStatCache = (t: Record<string, string>) => Object.fromEntries(Object.entries(t).filter(([path]) => path !== FILE_HASHES_PATH));
    expect(withoutStatCache(tree(a))).toEqual(withoutStatCache(treeA));

    // Outputs say nothing about where they were made.
    for (const path of Object.keys(treeA)) {
      const text = readFileSync(join(a, path)).toString("latin1");
      expect(text.includes(a), path).toBe(false);
      expect(text.includes(projectRoot()), path).toBe(false);
    }
    // Every output is in the manifest, with its hash unless it is volatile; .cache/ is the
    // runner's bookkeeping (its state, the report's rendered-figure cache), not an output.
    const listed = Object.fromEntries(manifest.outputs.map((o) => [o.path, o.sha256 ?? treeA[o.path]]));
    const expected = Object.fromEntries(Object.entries(treeA).filter(([path]) => !path.startsWith(".cache/")));
    delete expected["manifest.json"];
    expect(listed).toEqual(expected);
  }, WHOLE_PIPELINE_TIMEOUT_MS);
});
