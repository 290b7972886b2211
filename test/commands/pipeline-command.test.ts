import { mkdtempSync, rmSync, existsSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../../pipeline/cli";
import { WHOLE_PIPELINE_TIMEOUT_MS } from "../helpers";

const out = mkdtempSync(join(tmpdir(), "ckpt-pipeline-cli-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

function capture() {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { io: { stdout: (t: string) => stdout.push(t), stderr: (t: string) => stderr.push(t) }, stdout, stderr };
}

describe("ckpt pipeline", () => {
  it("documents itself, with every parameter and its default", async () => {
    const c = capture();
    expect(await main(["pipeline", "--help"], c.io)).toBe(0);
    expect(c.stdout.join("\n")).toMatch(/Usage:\n  ckpt pipeline/);
    expect(c.stdout.join("\n")).toContain("reproduce.peakM=1");
  });

  it("refuses an unknown parameter with exit code 2 and the list of parameters", async () => {
    const c = capture();
    expect(await main(["pipeline", "--out", out, "--param", "report.nope=1"], c.io)).toBe(2);
    expect(c.stderr.join("\n")).toMatch(/unknown parameter "report.nope"; parameters are .*reproduce.bandwidthRelative=0.05/);
    expect(await main(["pipeline", "--out", out, "--param", "novalue"], capture().io)).toBe(2);
    const jobs = capture();
    expect(await main(["pipeline", "--out", out, "--jobs", "0"], jobs.io)).toBe(2);
    expect(jobs.stderr.join("\n")).toMatch(/--jobs.*whole number.*1/);
  });

  it("stops at the ingest stage when no row is accepted, with the reasons and a row of each", async () => {
    // A folder of its own: --out must not hold anything the pipeline did not write (the next test reuses `out`).
    const folder = mkdtempSync(join(tmpdir(), "ckpt-pipeline-rejected-"));
    const trace = join(folder, "all-rejected.csv");
    writeFileSync(trace, "run_id,node,m,size_mb,ckpt_mb,start_s,end_s\nr,n,1,1,abc,5,1\nr2,n,1,1,1,5,1\nr3,n,1,1,1,5,2\n");
    const c = capture();
    expect(await main(["pipeline", "--traces", trace, "--out", join(folder, "report")], c.io)).toBe(1);
    expect(c.stderr.join("\n")).toContain(
      [
        "ckpt pipeline: nothing to aggregate: all 3 rows were rejected. The most frequent reasons, with the first row of each:",
        `  2 × end-before-start: ${trace}:3: end_s (1) is before start_s (5); are the two columns swapped?`,
        "      r2,n,1,1,1,5,1",
        `  1 × non-numeric: ${trace}:2: ckpt_mb must be a finite decimal number, found "abc"`,
        "      r,n,1,1,abc,5,1",
      ].join("\n"),
    );
    rmSync(folder, { recursive: true, force: true });
  });

  it("runs, then explains why a changed parameter reruns the reproduction", async () => {
    const first = capture();
    expect(await main(["pipeline", "--out", out], first.io)).toBe(0);
    expect(existsSync(join(out, "index.html"))).toBe(true);
    expect(first.stderr.some((l) => /^\[\d+\/\d+\] report: done in \d+\.\d s, \d+ files$/.test(l))).toBe(true);
    const second = capture();
    expect(await main(["pipeline", "--out", out, "--explain", "--param", "reproduce.peakM=2", "--json"], second.io)).toBe(0);
    const result = JSON.parse(second.stdout.join("\n")) as { stages: { name: string; ran: boolean; reasons: string[] }[] };
    expect(result.stages.find((s) => s.name === "reproduce")).toMatchObject({ ran: true, reasons: ["parameters changed: peakM: 1 → 2"] });
  }, WHOLE_PIPELINE_TIMEOUT_MS);
});
