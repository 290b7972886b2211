import { mkdtempSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../../pipeline/cli";

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
    expect(c.stdout.join("\n")).toContain("report.reproduction.peakM=1");
  });

  it("refuses an unknown parameter with exit code 2 and the list of parameters", async () => {
    const c = capture();
    expect(await main(["pipeline", "--out", out, "--param", "report.nope=1"], c.io)).toBe(2);
    expect(c.stderr.join("\n")).toMatch(/unknown parameter "report.nope"; parameters are .*report.reproduction.bandwidthRelative=0.05/);
    expect(await main(["pipeline", "--out", out, "--param", "novalue"], capture().io)).toBe(2);
    const jobs = capture();
    expect(await main(["pipeline", "--out", out, "--jobs", "0"], jobs.io)).toBe(2);
    expect(jobs.stderr.join("\n")).toMatch(/--jobs.*whole number.*1/);
  });

  it("runs, then explains why a changed parameter reruns the report", async () => {
    const first = capture();
    expect(await main(["pipeline", "--out", out], first.io)).toBe(0);
    expect(existsSync(join(out, "index.html"))).toBe(true);
    expect(first.stderr.some((l) => /^\[\d+\/\d+\] report: done in \d+\.\d s, \d+ files$/.test(l))).toBe(true);
    const second = capture();
    expect(await main(["pipeline", "--out", out, "--explain", "--param", "report.reproduction.peakM=2", "--json"], second.io)).toBe(0);
    const result = JSON.parse(second.stdout.join("\n")) as { stages: { name: string; ran: boolean; reasons: string[] }[] };
    expect(result.stages.find((s) => s.name === "report")).toMatchObject({ ran: true, reasons: ["parameters changed: reproduction.peakM: 1 → 2"] });
  }, 120_000);
});
