import { describe, expect, it } from "vitest";
import { parseSweep } from "../../pipeline/harness/parse-sweep";
import { planSweep } from "../../pipeline/harness/plan-sweep";
import { checkedRunRows, traceHeader, traceRows } from "../../pipeline/harness/trace-rows";
import { hostLogLines, writeHostLogsRun } from "../../pipeline/harness/host-logs";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { temporaryFolder } from "./temp-dir";

const combination = planSweep(parseSweep('{ "backend": "emulate", "m": [2], "sizeMb": [8] }', "s.json", "t")).combinations[0]!;
const processes = [
  { index: 1, node: "local-1", pid: 101, sizeMb: 8, ckptBytes: 8_011_464, startS: 0.001, endS: 0.5 },
  { index: 2, node: "local-2", pid: 102, sizeMb: 8, ckptBytes: 8_011_464, startS: 0.002, endS: 0.6 },
];

describe("trace rows", () => {
  it("are canonical rows (issue 2) with the harness's extra columns", () => {
    expect(traceHeader(null)).toBe("run_id,node,m,size_mb,ckpt_mb,start_s,end_s,repetition,backend,sync");
    expect(traceHeader("azur")).toMatch(/,sync,cluster$/);
    expect(traceRows(combination, processes, null)).toEqual([
      "t.m2-s8-r1,local-1,2,8,8.011464,0.001000,0.500000,1,emulate,fsync",
      "t.m2-s8-r1,local-2,2,8,8.011464,0.002000,0.600000,1,emulate,fsync",
    ]);
  });

  it("are read back only when the run's file is complete and its own", () => {
    const good = `${traceHeader(null)}\n${traceRows(combination, processes, null).join("\n")}\n`;
    expect(checkedRunRows(good, combination, null)).toHaveLength(2);
    const refused = [
      good.slice(0, -1), // no final newline: a torn write
      good.slice(0, good.lastIndexOf("t.m2")), // one row missing
      good.replace("local-2", "local-1"), // duplicate node
      good.replace(/t\.m2-s8-r1,local-2/, "t.m2-s8-r2,local-2"), // another run's row
      good.replace("0.600000", "x"), // not a number
      good.replace(traceHeader(null), traceHeader("azur")), // another header
    ];
    for (const text of refused) expect(checkedRunRows(text, combination, null)).toBeNull();
  });
});

const out = temporaryFolder("host-logs");

describe("host logs", () => {
  it("are the ingest stage's event lines: ckpt_start with m and size_mb, ckpt_end with ckpt_bytes, paired by pid", () => {
    // Barrier at Unix time 1 700 000 000.5 s; process 1 ran from +0.001 s to +0.5 s.
    expect(hostLogLines(combination, processes[0]!, 1_700_000_000_500, "azur")).toEqual([
      "1700000000.501000 ckpt_start pid=101 m=2 size_mb=8 repetition=1 backend=emulate sync=fsync cluster=azur",
      "1700000001.000000 ckpt_end pid=101 ckpt_bytes=8011464",
    ]);
  });

  it("appear one run folder at a time, with one folder per node, and nothing staged left inside host-logs/", () => {
    writeHostLogsRun(out, combination, processes, 1_700_000_000_000, null);
    writeHostLogsRun(out, combination, processes, 1_700_000_000_000, null); // a redone run replaces its folder
    expect(readdirSync(join(out, "host-logs"))).toEqual(["t.m2-s8-r1"]);
    expect(readdirSync(join(out, "host-logs", "t.m2-s8-r1")).sort()).toEqual(["local-1", "local-2"]);
    expect(readFileSync(join(out, "host-logs", "t.m2-s8-r1", "local-2", "events.log"), "utf8")).toMatch(/^# ckpt-lab harness, run t\.m2-s8-r1\n1700000000\.002000 ckpt_start pid=102 /);
  });
});
