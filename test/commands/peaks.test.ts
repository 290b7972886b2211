import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { fitBandwidthModel, DEFAULT_FIT_OPTIONS } from "../../pipeline/fit/fit-bandwidth-model";
import { syntheticObservations } from "../fit/fixtures";
import { reference } from "../fit/reference";
import { runCli } from "../cli-io";

const D1 = reference.peaks.D1.sizesMb.join(",");

describe("ckpt peaks", () => {
  it("prints exactly the documented JSON", async () => {
    const { code, stdout } = await runCli(["peaks", "--model", "paper", "--sizes", D1, "--json"]);
    expect(code).toBe(0);
    const result = JSON.parse(stdout) as { curve: Record<string, unknown>[]; peak: Record<string, unknown> };
    expect(Object.keys(result)).toEqual(["curve", "peak"]);
    expect(Object.keys(result.curve[0]!)).toEqual(["m", "sizeMb", "bw", "inDomain"]);
    expect(result.curve[1]).toMatchObject({ m: 2, sizeMb: 556 });
    expect(result.curve).toHaveLength(12);
    // numpy, reference.py: D1 peaks at ī = 9 under the published coefficients.
    expect(result.peak).toEqual({ m: 9, bw: reference.peaks.D1.peak.bw });
  });

  it("prints a table that marks the peak and the extrapolations", async () => {
    const { code, stdout } = await runCli(["peaks", "--model", "paper", "--sizes", reference.peaks.D3.sizesMb.join(",")]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^ *7 +2408 +2\.408 +26\.24 +peak *$/m);
    expect(stdout).toMatch(/^ *10 +3724 +3\.724 +15\.59 +outside the fitted domain$/m);
    expect(stdout).toMatch(/peak: ī = 7, bw = 26\.24 MB\/s/);
    expect(stdout).toMatch(/3 of 12 points lie outside the fitted domain/);
  });

  it("reads a fitted model file", async () => {
    const folder = mkdtempSync(join(tmpdir(), "ckpt-peaks-"));
    onTestFinished(() => rmSync(folder, { recursive: true, force: true }));
    const path = join(folder, "model.json");
    writeFileSync(path, JSON.stringify(fitBandwidthModel(syntheticObservations(), { ...DEFAULT_FIT_OPTIONS, form: "paper" }).model));
    const { code, stdout } = await runCli(["peaks", "--model", path, "--sizes", "100,200,300", "--json"]);
    expect(code).toBe(0);
    expect(JSON.parse(stdout).curve).toHaveLength(3);
  });

  it("exits 2 on usage errors and 1 on bad input", async () => {
    expect((await runCli(["peaks", "--sizes", D1])).code).toBe(2);
    expect((await runCli(["peaks", "--model", "paper"])).code).toBe(2);
    const notNumber = await runCli(["peaks", "--model", "paper", "--sizes", "105,abc"]);
    expect(notNumber.code).toBe(2);
    expect(notNumber.stderr).toMatch(/item 2 \("abc"\) is not a number/);
    const negative = await runCli(["peaks", "--model", "paper", "--sizes", "105,-1"]);
    expect(negative.code).toBe(1);
    expect(negative.stderr).toMatch(/application size 2 is -1 MB/);
    const missing = await runCli(["peaks", "--model", "no/such/model.json", "--sizes", "1"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/cannot read model "no\/such\/model.json"/);
  });

  it("has --help", async () => {
    const { code, stdout } = await runCli(["peaks", "--help"]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/Usage:\n  ckpt peaks --model <file\|paper> --sizes/);
  });
});
