/**
 * `ckpt ingest` on IOR and fio results: the format it detected named, `--format` forcing
 * one, a file that is none of them described, a results folder read with its README
 * skipped, and which aggregated bandwidth the runs carry said (and kept in the
 * observations file, where the fit and the report read it).
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { detectTraceFormat } from "../../pipeline/ingest/detect-trace-format";
import { runCli } from "../cli-io";

const scratch = mkdtempSync(join(tmpdir(), "ckpt-ingest-benchmarks-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const fixtures = join(__dirname, "..", "ingest", "fixtures");
const ior = (name: string) => join(fixtures, "ior", name);
const fio = (name: string) => join(fixtures, "fio", name);
const out = (name: string) => join(scratch, name);

describe("ckpt ingest on benchmark results", () => {
  it("names the format it detected, and the bandwidth definition of the runs", async () => {
    const { code, stdout, stderr } = await runCli(["ingest", ior("ior-4.0.0-scaling-script.txt"), fio("fio-3.33-scaling-groups.json"), "--out", out("a.json")]);
    expect(code, stderr).toBe(0);
    expect(stdout).toMatch(/^format: IOR 4\.0\.0 text output: .*ior-4\.0\.0-scaling-script\.txt$/m);
    expect(stdout).toMatch(/^format: fio 3\.33 JSON: .*fio-3\.33-scaling-groups\.json$/m);
    expect(stdout).toMatch(/^bandwidth: 6 runs with all writers' bytes over the wall time/m);
    expect(stdout).toMatch(/^bandwidth: 3 runs with the sum of the writers' own bandwidths \(the papers' definition\)$/m);
    expect(stdout).toMatch(/warning: the runs carry both aggregated bandwidths; .*--group-by bandwidth_definition keeps them apart/);
    // Kept in the observations file, run by run.
    const artifact = JSON.parse(readFileSync(out("a.json"), "utf8"));
    const definitions = artifact.observations.runs.map((r: { attributes: Record<string, string> }) => r.attributes.bandwidth_definition);
    expect(definitions.filter((d: string) => d === "bytes-over-wall-time")).toHaveLength(6);
    expect(definitions.filter((d: string) => d === "sum-of-writers")).toHaveLength(3);
  });

  it("--json lists the formats and the definitions", async () => {
    const { code, stdout } = await runCli(["ingest", ior("ior-3.3.0-json-summary.json"), "--out", out("b.json"), "--json"]);
    expect(code).toBe(0);
    const report = JSON.parse(stdout);
    expect(report.formats).toEqual([{ path: ior("ior-3.3.0-json-summary.json"), format: "IOR 3.3.0 JSON summary" }]);
    expect(report.bandwidthDefinitions).toEqual({ "bytes-over-wall-time": 2 });
  });

  it("--group-by bandwidth_definition keeps the two definitions' series apart", async () => {
    const { code, stdout } = await runCli(["ingest", ior("ior-4.0.0-fpp-4tasks-2iter.txt"), fio("fio-3.33-4jobs.json"), "--out", out("c.json"), "--group-by", "bandwidth_definition", "--json"]);
    expect(code).toBe(0);
    const groups = JSON.parse(stdout).series.map((s: { group: Record<string, string> }) => s.group.bandwidth_definition);
    expect(groups).toEqual(["bytes-over-wall-time", "sum-of-writers"]);
  });

  it("--format forces one: fio's JSON read as IOR holds no IOR result", async () => {
    const { code, stderr } = await runCli(["ingest", fio("fio-3.33-4jobs.json"), "--format", "ior", "--out", out("d.json")]);
    expect(code).toBe(1);
    expect(stderr).toMatch(/fio-3\.33-4jobs\.json: read as IOR unknown text output, but it holds no result/);
    const forced = await runCli(["ingest", ior("ior-3.3.0-fpp-4tasks-2iter.txt"), "--format", "ior", "--out", out("e.json")]);
    expect(forced.code).toBe(0);
    expect(forced.stdout).toMatch(/format: IOR 3\.3\.0 text output/);
  });

  it("a file that is none of the formats says what it looks like", async () => {
    const other = out("other.json");
    writeFileSync(other, '{\n  "name": "x",\n  "items": [1, 2]\n}\n');
    const json = await runCli(["ingest", other, "--out", out("f.json")]);
    expect(json.code).toBe(1);
    expect(json.stderr).toMatch(/other\.json is JSON with the keys name, items, neither fio's \(no "fio version"\) nor IOR's JSON summary .*ckpt ingest reads canonical CSV, host logs, IOR's text output or JSON summary, fio's JSON and the log of ckpt release --log/);
    const normal = out("fio-normal.txt");
    writeFileSync(normal, "ckpt: (g=0): rw=write, bs=(R) 1024KiB-1024KiB, (W) 1024KiB-1024KiB, (T) 1024KiB-1024KiB, ioengine=psync, iodepth=1\nfio-3.33\nStarting 1 process\n");
    const text = await runCli(["ingest", normal, "--out", out("g.json")]);
    expect(text.code).toBe(1);
    expect(text.stderr).toMatch(/fio-normal\.txt is fio's normal \(text\) output; rerun fio with --output-format=json/);
  });

  it("a folder of results: each file detected, a README skipped with a warning", async () => {
    const folder = join(scratch, "ior-results");
    mkdirSync(folder);
    for (const name of ["ior-3.3.0-fpp-4tasks-2iter.txt", "ior-4.0.0-fpp-4tasks-2iter.txt"]) copyFileSync(ior(name), join(folder, name));
    copyFileSync(fio("fio-3.33-4jobs.json"), join(folder, "fio-4jobs.json"));
    writeFileSync(join(folder, "notes.txt"), "measured on the lab cluster, see the wiki\n");
    const { code, stdout, stderr } = await runCli(["ingest", folder, "--out", out("h.json")]);
    expect(code, stderr).toBe(0);
    expect(stdout).toMatch(/read 10 rows from 3 files: 8 accepted, 2 rejected/);
    expect(stdout).toMatch(/warning: .*notes\.txt skipped: it is/);
    // --format canonical: the folder stands for its .csv files only, and it has none.
    const canonical = await runCli(["ingest", folder, "--format", "canonical", "--out", out("i.json")]);
    expect(canonical.code).toBe(1);
    expect(canonical.stderr).toMatch(/contains no \.csv files/);
  });
});

describe("detectTraceFormat", () => {
  const sample = (path: string) => readFileSync(path, "utf8").slice(0, 1 << 16);
  it("tells every fixture's format from its first bytes", () => {
    for (const version of ["3.2.1", "3.3.0", "4.0.0"]) {
      expect(detectTraceFormat(sample(ior(`ior-${version}-shared-2tasks-3iter.txt`)))).toEqual({ format: "ior-text" });
      expect(detectTraceFormat(sample(ior(`ior-${version}-json-summary.json`)))).toEqual({ format: "ior-json" });
    }
    expect(detectTraceFormat(sample(ior("ior-3.3.0-summary-only.txt")))).toEqual({ format: "ior-text" });
    for (const name of ["fio-3.33-4jobs.json", "fio-3.33-4jobs-jsonplus.json", "fio-3.33-client-2servers.json", "fio-3.33-json-and-normal.out"]) {
      expect(detectTraceFormat(sample(fio(name)))).toEqual({ format: "fio-json" });
    }
    expect(detectTraceFormat("run_id,node,m,size_mb,ckpt_mb,start_s,end_s\n")).toEqual({ format: "canonical" });
    // Anything else goes to the canonical reader, whose messages say what its header holds.
    expect(detectTraceFormat("a\tb\tc\n")).toEqual({ format: "canonical" });
    expect(detectTraceFormat("3;fio-3.33;ckpt;0;0;0\n")).toMatchObject({ format: null, looksLike: expect.stringMatching(/fio's terse output/) });
  });
});
