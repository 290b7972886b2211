/**
 * The host-logs layout: <run>/<host>/events.log with ckpt_start / ckpt_end lines, paired
 * per pid; and how command-line paths are resolved to trace inputs.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { expectClose } from "../helpers";
import { ingestFiles } from "../../pipeline/ingest/ingest-files";
import { parseHostLogLine } from "../../pipeline/ingest/host-log-event";

const scratch = mkdtempSync(join(tmpdir(), "ckpt-host-logs-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Write a campaign: { run: { host: text } }. */
function campaign(name: string, runs: Record<string, Record<string, string>>): string {
  const root = join(scratch, name);
  for (const [run, hosts] of Object.entries(runs)) {
    for (const [host, text] of Object.entries(hosts)) {
      mkdirSync(join(root, run, host), { recursive: true });
      writeFileSync(join(root, run, host, "events.log"), text);
    }
  }
  return root;
}

describe("the example campaign data/examples/host-logs", () => {
  it("pairs start and end per pid and aggregates as the canonical format does", async () => {
    const result = await ingestFiles(["data/examples/host-logs"]);
    expect(result.counts).toEqual({ read: 5, accepted: 5, rejected: 0 });
    expect(result.inputs.map((i) => i.path)).toEqual([
      "data/examples/host-logs/run-001/azur-3/events.log",
      "data/examples/host-logs/run-002/azur-3/events.log",
      "data/examples/host-logs/run-002/azur-7/events.log",
      "data/examples/host-logs/run-003/azur-3/events.log",
      "data/examples/host-logs/run-003/azur-7/events.log",
    ]);
    const [one, two, three] = result.observations.runs;
    // By hand: ckpt_mb = ckpt_bytes / 10^6 = 76.174; run-001: 76.174 / 13.5 s;
    // run-002: 76.174 / 12.5 + 76.174 / 13.0; run-003: 105.205 / 21 + 451.54 / 90.
    expect(one).toMatchObject({ runId: "run-001", m: 1, uniformSizeMb: 76, source: "data/examples/host-logs/run-001", attributes: { app: "blcr-emulator" } });
    expectClose(one!.aggregatedBwMbPerS, 76.174 / 13.5, 1e-9);
    expectClose(one!.vGb, 0.076, 1e-12);
    expect(two).toMatchObject({ runId: "run-002", m: 2, uniformSizeMb: 76 });
    expectClose(two!.aggregatedBwMbPerS, 76.174 / 12.5 + 76.174 / 13, 1e-9);
    expect(three).toMatchObject({ runId: "run-003", m: 2, uniformSizeMb: null });
    expectClose(three!.aggregatedBwMbPerS, 105.205 / 21 + 451.54 / 90, 1e-9);
    expectClose(three!.vGb, 0.556, 1e-12);
    expect(result.observations.validationRuns.map((r) => r.runId)).toEqual(["run-003"]);
    expect(result.observations.series.map((s) => [s.sizeMb, s.points.map((p) => p.m), s.peak.m])).toEqual([[76, [1, 2], 2]]);
  });

  it("reads one run directory given directly", async () => {
    const result = await ingestFiles(["data/examples/host-logs/run-002"], { format: "host-logs" });
    expect(result.observations.runs.map((r) => r.runId)).toEqual(["run-002"]);
  });
});

describe("host-log problems", () => {
  it("rejects malformed and unpaired lines, bad values, and second processes on a host, each counted once", async () => {
    const root = campaign("problems", {
      "run-1": {
        a: [
          "# comment, blank lines and CRLF are fine",
          "",
          "100.0 ckpt_start pid=1 m=2 size_mb=76\r",
          "105.0 ckpt_end pid=1 ckpt_bytes=76000000\r",
          "106.0 ckpt_end pid=9 ckpt_bytes=1", // end without start
          "107.0 ckpt_start pid=2 m=2 size_mb=76", // start followed by another start of pid 2
          "108.0 ckpt_start pid=2 m=2 size_mb=76",
          "109.0 ckpt_end pid=2 ckpt_bytes=76000000", // pairs with line 8: a second process on host a
          "110.0 ckpt_stop pid=3", // unknown event
          "111.0 ckpt_start pid=4 m=2", // no size_mb
          "112.0 ckpt_start pid=5 m=2 size_mb=76", // never ends
        ].join("\n"),
        b: "100.0 ckpt_start pid=7 m=2 size_mb=76\nlater ckpt_end pid=7 ckpt_bytes=76000000\n",
      },
    });
    const result = await ingestFiles([root]);
    expect(result.counts.read).toBe(result.counts.accepted + result.counts.rejected);
    const a = join(root, "run-1", "a", "events.log");
    const b = join(root, "run-1", "b", "events.log");
    expect(result.rejects.map((r) => [r.file, r.line, r.code])).toEqual([
      [a, 3, "run-size-mismatch"], // a's first pair is fine, but b's pair is not: the run has 1 valid process of 2
      [a, 5, "unpaired-event"],
      [a, 6, "unpaired-event"],
      [a, 7, "duplicate-process"],
      [a, 9, "malformed-event"],
      [a, 10, "malformed-event"],
      [a, 11, "unpaired-event"],
      [b, 1, "non-numeric"],
    ]);
    const byLine = new Map(result.rejects.filter((r) => r.file === a).map((r) => [r.line, r]));
    expect(byLine.get(5)!.reason).toMatch(/ckpt_end of pid "9" has no ckpt_start before it/);
    expect(byLine.get(6)!.reason).toMatch(new RegExp(`no ckpt_end before the next ckpt_start of that pid \\(${a.replace(/[/\\.]/g, "\\$&")}:7\\)`));
    expect(byLine.get(7)!.raw).toBe("108.0 ckpt_start pid=2 m=2 size_mb=76\n109.0 ckpt_end pid=2 ckpt_bytes=76000000");
    expect(byLine.get(9)!.reason).toMatch(/unknown event "ckpt_stop"/);
    expect(byLine.get(10)!.reason).toMatch(/ckpt_start without size_mb=/);
    expect(byLine.get(11)!.reason).toMatch(/no ckpt_end before the end of the log/);
    expect(result.rejects.find((r) => r.file === b)!.reason).toMatch(/time of ckpt_end must be a finite decimal number, found "later"/);
    expect(result.counts).toEqual({ read: 8, accepted: 0, rejected: 8 });
  });

  it("stops at the first problem in strict mode", async () => {
    const root = campaign("strict", { r: { h: "1 ckpt_start pid=1 m=1 size_mb=5\n2 ckpt_end pid=1 ckpt_bytes=-3\n" } });
    await expect(ingestFiles([root], { strict: true })).rejects.toThrow(/r\/h\/events\.log:1: ckpt_mb must be > 0/);
  });

  it("parses an event line into its fields", () => {
    expect(parseHostLogLine("1.5\tckpt_start  pid=7 m=3 size_mb=76 app=x")).toEqual({
      kind: "ckpt_start",
      timeText: "1.5",
      pid: "7",
      values: new Map([
        ["pid", "7"],
        ["m", "3"],
        ["size_mb", "76"],
        ["app", "x"],
      ]),
    });
    expect(parseHostLogLine("  # note")).toEqual({ kind: "none" });
    expect(parseHostLogLine("1 ckpt_end pid=1 ckpt_bytes=2 pid=3")).toEqual({ kind: "malformed", detail: "key pid appears twice" });
    expect(parseHostLogLine("1 ckpt_end")).toEqual({ kind: "malformed", detail: "found 2 fields" });
  });
});

describe("resolving command-line paths", () => {
  it("treats a directory of CSV files as those files, in name order", async () => {
    const dir = join(scratch, "csvs");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "b.csv"), "run_id,node,m,size_mb,ckpt_mb,start_s,end_s\nx,n,1,1,1,0,1\n");
    writeFileSync(join(dir, "a.csv"), "run_id,node,m,size_mb,ckpt_mb,start_s,end_s\nx,n,1,1,1,0,2\n");
    writeFileSync(join(dir, "notes.txt"), "not a trace");
    const result = await ingestFiles([dir]);
    expect(result.inputs.map((i) => i.path)).toEqual([join(dir, "a.csv"), join(dir, "b.csv")]);
    expect(result.inputs[0]!.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it("warns about a host directory without an event log", async () => {
    const root = campaign("warn", { r: { h: "1 ckpt_start pid=1 m=1 size_mb=5\n2 ckpt_end pid=1 ckpt_bytes=5000000\n" } });
    mkdirSync(join(root, "r", "silent-host"));
    const result = await ingestFiles([root]);
    expect(result.warnings).toEqual([`${join(root, "r", "silent-host")} has no events.log: no process of run "r" is read from it`]);
  });

  it("says what is wrong with a path", async () => {
    await expect(ingestFiles([join(scratch, "missing.csv")])).rejects.toThrow(/missing\.csv: no such file or directory/);
    await expect(ingestFiles(["data/examples/canonical-with-problems.csv"], { format: "host-logs" })).rejects.toThrow(/is a file, but --format host-logs reads directories/);
    const empty = join(scratch, "empty");
    mkdirSync(empty, { recursive: true });
    await expect(ingestFiles([empty])).rejects.toThrow(/contains no \.csv files nor host logs/);
    await expect(ingestFiles([empty], { format: "host-logs" })).rejects.toThrow(/holds no host logs: expected .*<host>\/events\.log/);
    await expect(ingestFiles([])).rejects.toThrow(/no trace given/);
  });
});
