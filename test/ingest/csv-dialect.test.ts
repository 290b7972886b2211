/**
 * A spreadsheet's CSV in a decimal-comma locale (issue 23, a new user's Excel export): fields
 * separated by ';', numbers written 6,5. Detected and read — the same observations as the
 * canonical file, with a warning that says what was seen — or read as `--delimiter ';'
 * --decimal-comma` say; chunk boundaries anywhere, on two threads, quotes kept, rejected
 * rows as the file has them. What is not such a file is refused with what was seen.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { memorySource } from "../../pipeline/ingest/byte-source";
import { ingestFiles, ingestTraces, type IngestOptions } from "../../pipeline/ingest/ingest-files";
import { runCli } from "../cli-io";

const scratch = mkdtempSync(join(tmpdir(), "ckpt-dialect-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const CANONICAL = [
  "run_id,node,m,size_mb,ckpt_mb,start_s,end_s,cluster",
  "a,n1,2,76,76.174,0.000,6.500,azur",
  "a,n2,2,76,76.174,0.010,6.610,azur",
  "b,n1,1,76,76.174,10.000,12.250,azur",
  "c,n1,1,128,128.5,20,21.5,azur",
  "",
].join("\n");
/** The same trace as a French or German spreadsheet saves it: ';' between fields, a decimal comma in numbers (text as it is). */
const excel = (canonical: string) =>
  canonical
    .split("\n")
    .map((line) => line.split(",").map((field) => (/^-?\d+\.\d+$/.test(field) ? field.replace(".", ",") : field)).join(";"))
    .join("\n");

function ingestText(text: string, options: IngestOptions = {}, maxReadBytes?: number) {
  return ingestTraces([{ format: "canonical", open: async () => memorySource("t.csv", text, { maxReadBytes }) }], options);
}

describe("a ';'-separated trace with decimal commas", () => {
  it("is detected and read as the canonical file is, with a warning that says what was seen and done", async () => {
    const reference = await ingestText(CANONICAL);
    const read = await ingestText(excel(CANONICAL));
    expect(read.observations).toEqual(reference.observations);
    expect(read.counts).toEqual({ read: 4, accepted: 4, rejected: 0 });
    expect(read.warnings).toEqual([
      `t.csv: its header separates the columns with ';' ("run_id;node;m;size_mb;ckpt_mb;start_s;end_s;cluster") and its numbers use ',' as the decimal mark ("76,174" at line 2), as a spreadsheet in a decimal-comma locale saves CSV; read as such (--delimiter ';' --decimal-comma)`,
    ]);
  });

  it("is read the same when --delimiter ';' --decimal-comma say so, without a warning", async () => {
    const reference = await ingestText(CANONICAL);
    const read = await ingestText(excel(CANONICAL), { delimiter: ";", decimalComma: true });
    expect(read.observations).toEqual(reference.observations);
    expect(read.warnings).toBeUndefined();
  });

  it("is read the same with chunk boundaries anywhere, by both parsers", async () => {
    const reference = await ingestText(CANONICAL);
    for (const canonicalParser of ["fast", "csv-parse"] as const) {
      for (const maxReadBytes of [1, 2, 3, 5, 7, 64]) {
        const read = await ingestText(excel(CANONICAL), { canonicalParser }, maxReadBytes);
        expect(read.observations, `${canonicalParser}, reads of ${maxReadBytes} bytes`).toEqual(reference.observations);
      }
    }
  });

  it("is read the same on two threads", async () => {
    // The shipped synthetic trace (5.6 MB): split between the main thread and a worker.
    const canonical = readFileSync("data/traces/synthetic-azur.csv", "utf8");
    writeFileSync(join(scratch, "azur.csv"), canonical);
    writeFileSync(join(scratch, "azur-excel.csv"), excel(canonical));
    const reference = await ingestFiles([join(scratch, "azur.csv")], { parallelMinBytes: Infinity });
    const split = await ingestFiles([join(scratch, "azur-excel.csv")], { parallelMinBytes: 0 });
    // The same runs, each from its own file.
    const fromFile = (runs: { source?: string }[]) => runs.map(({ source: _source, ...run }) => run);
    expect(fromFile(split.observations.runs)).toEqual(fromFile(reference.observations.runs));
    expect(split.observations.series).toEqual(reference.observations.series);
    expect(split.counts).toEqual(reference.counts);
  });

  it("keeps a comma of an unquoted text value inside its field, read as ';'", async () => {
    const text = ["run_id;node;m;size_mb;ckpt_mb;start_s;end_s;site", "r1;n1;1;76;76,5;0;6,5;Lyon, room 2", ""].join("\n");
    const read = await ingestText(text, { groupBy: ["site"] });
    expect(read.counts.accepted).toBe(1);
    expect(read.observations.runs[0]).toMatchObject({ runId: "r1", attributes: { site: "Lyon; room 2" } });
  });

  it("keeps quoted values as they are: a ';' or a comma between digits inside quotes is text", async () => {
    const text = ['run_id;node;m;size_mb;ckpt_mb;start_s;end_s;site', '"r1,2";n1;1;76;76,5;0;6,5;"Lyon; room 2"', ""].join("\n");
    const read = await ingestText(text, { groupBy: ["site"] });
    expect(read.counts.accepted).toBe(1);
    expect(read.observations.runs[0]).toMatchObject({ runId: "r1,2", m: 1, attributes: { site: "Lyon; room 2" } });
    expect(read.observations.runs[0]!.aggregatedBwMbPerS).toBeCloseTo(76.5 / 6.5, 12);
  });

  it("lists a rejected row as the file has it, with its own separators and decimal marks", async () => {
    const text = excel(CANONICAL).replace("c;n1;1;128;128,5;20;21,5;azur", "c;n1;1;128;128,5;22;21,5;azur");
    const read = await ingestText(text);
    expect(read.rejects).toEqual([{ file: "t.csv", line: 5, code: "end-before-start", reason: "end_s (21.5) is before start_s (22); are the two columns swapped?", raw: "c;n1;1;128;128,5;22;21,5;azur" }]);
  });

  it("with no decimal comma in its first rows, is read with '.' as the decimal mark, and says so", async () => {
    const text = CANONICAL.replace(/,/g, ";");
    const read = await ingestText(text);
    expect(read.observations).toEqual((await ingestText(CANONICAL)).observations);
    expect(read.warnings![0]).toContain("its first rows hold no number with a decimal comma, as a spreadsheet in a decimal-comma locale saves CSV; read as such (--delimiter ';'); if some numbers further down use a decimal comma, give --delimiter ';' --decimal-comma");
  });
});

describe("ckpt ingest with another separator", () => {
  it("reads an Excel export as it is, and says so", async () => {
    const trace = join(scratch, "export.csv");
    writeFileSync(trace, excel(CANONICAL));
    const run = await runCli(["ingest", trace, "--out", join(scratch, "export.json")]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^read 4 rows from 1 file: 4 accepted, 0 rejected$/m);
    expect(run.stdout).toContain(`warning: ${trace}: its header separates the columns with ';'`);
    expect(run.stdout).toContain("read as such (--delimiter ';' --decimal-comma)");
  });

  it("ckpt fit reads one too, says so, and fits the model the canonical file gives", async () => {
    const canonical = readFileSync("data/traces/nfs-8x100mbit.csv", "utf8");
    writeFileSync(join(scratch, "nfs.csv"), canonical);
    writeFileSync(join(scratch, "nfs-excel.csv"), excel(canonical));
    const reference = await runCli(["fit", join(scratch, "nfs.csv"), "--json"]);
    const read = await runCli(["fit", join(scratch, "nfs-excel.csv"), "--json"]);
    expect(read.code, read.stderr).toBe(0);
    expect(read.stderr).toMatch(/^warning: .*nfs-excel\.csv: its header separates the columns with ';' .* read as such \(--delimiter ';' --decimal-comma\)$/m);
    expect(JSON.parse(read.stdout).model.coefficients).toEqual(JSON.parse(reference.stdout).model.coefficients);
  });

  it("refuses a ';' file read with --delimiter ',' and a tab-separated one, saying what was seen and how to proceed", async () => {
    const semicolons = join(scratch, "semicolons.csv");
    writeFileSync(semicolons, excel(CANONICAL));
    const forced = await runCli(["ingest", semicolons, "--delimiter", ",", "--out", join(scratch, "x.json")]);
    expect(forced.code).toBe(1);
    expect(forced.stderr).toContain(`found "run_id;node;m;size_mb;ckpt_mb;start_s;end_s;cluster". Its columns are separated by ';' (as a spreadsheet in a decimal-comma locale saves CSV): read it with --delimiter ';' (and --decimal-comma if numbers are written 6,5)`);
    const tabs = join(scratch, "tabs.tsv");
    writeFileSync(tabs, CANONICAL.replace(/,/g, "\t"));
    const tab = await runCli(["ingest", tabs, "--format", "canonical", "--out", join(scratch, "y.json")]);
    expect(tab.code).toBe(1);
    expect(tab.stderr).toContain(`Its columns are separated by tabs: convert the file, e.g. tr '\\t' ',' < '${tabs}' > trace.csv`);
    const commas = join(scratch, "commas.csv");
    writeFileSync(commas, CANONICAL);
    const wrong = await runCli(["ingest", commas, "--delimiter", ";", "--out", join(scratch, "z.json")]);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain(`${commas}:1: --delimiter ';' was given, but the header holds no ';' ("run_id,node,m,size_mb,ckpt_mb,start_s,end_s,cluster"); leave --delimiter to auto`);
    const usage = await runCli(["ingest", semicolons, "--delimiter", ",", "--decimal-comma"]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("--decimal-comma needs fields separated by something else than ','");
  });
});
