/**
 * The availability-trace readers: the FTA event_trace table and Godfrey's .avt format, on
 * small hand-written files whose answers are worked out in the comments, and on the real
 * traces of data/availability/ against the figures their provenance states.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { availableAt, availableSeconds, nextChangeAfter, traceStatistics } from "../../pipeline/simulate/traces/availability-trace";
import { readAvailabilityTrace } from "../../pipeline/simulate/traces/read-availability-trace";
import { projectRoot } from "../../pipeline/shared/version";

const dir = mkdtempSync(join(tmpdir(), "ckpt-traces-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
function file(name: string, text: string | Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const FTA_HEADER = "# event_id component_id node_id platform_id node_name event_type event_start_time event_stop_time event_end_reason";

describe("the FTA event_trace reader", () => {
  it("keeps available intervals per node, rejects bad lines with their reasons, and accounts for every line", async () => {
    const path = file(
      "t.tab",
      [
        FTA_HEADER,
        "0 0 7 3 1.0 1 100 200 NULL", // node 7 up 100–200
        "1 0 7 3 1.0 0 200 250 NULL", // down 200–250
        "2 0 7 3 1.0 1 250 400.5 2", // up 250–400.5 (a decimal time)
        "3 0 7 3 1.0 1 300 350 2", // overlaps line 4: rejected
        "0 0 9 3 2.0 1 500 400 NULL", // stop before start: rejected
        "1 0 9 3 2.0 1 600 700 NULL", // node 9 up 600–700
        "2 0 9 3 2.0 1 800 900 NULL", // a gap 700–800 before it: unavailable, warned
        "2 0 9 3 2.0 2 900 950 NULL", // unknown event type
        "too short",
        "",
      ].join("\n"),
    );
    const trace = await readAvailabilityTrace(path);
    expect(trace.nodes.map((n) => ({ key: n.key, starts: [...n.starts], ends: [...n.ends] }))).toEqual([
      { key: "7", starts: [100, 250], ends: [200, 400.5] },
      { key: "9", starts: [600, 800], ends: [700, 900] },
    ]);
    expect(trace.rejects.map((r) => r.line)).toEqual([5, 6, 9, 10]);
    expect(trace.rejects[0]!.reason).toMatch(/overlaps the interval of line 4 of node 7/);
    expect(trace.rejects[1]!.reason).toMatch(/event_stop_time 400 is before event_start_time 500/);
    expect(trace.rejects[2]!.reason).toMatch(/event_type must be 1 \(available\) or 0/);
    expect(trace.counts).toEqual({ lines: 10, accepted: 5, rejected: 4, comments: 1 }); // the final newline ends line 10
    expect(trace.counts.lines).toBe(trace.counts.accepted + trace.counts.rejected + trace.counts.comments);
    expect(trace.warnings.join(" ")).toMatch(/1 gap\(s\) between recorded intervals \(0\.0 h in total\)/);
    expect([trace.startS, trace.endS]).toEqual([100, 900]);
  });

  it("rejects times that are no date (1e400 read as Infinity, 6e101; found by the fuzz suite)", async () => {
    const trace = await readAvailabilityTrace(file("far.tab", [FTA_HEADER, "0 0 1 0 n 1 0 1e400 0", "1 0 1 0 n 1 6e101 7e101 0", "2 0 2 0 n 1 10 20 0"].join("\n")));
    expect(trace.rejects.map((r) => [r.line, r.reason])).toEqual([
      [2, expect.stringMatching(/event times must be seconds within ±1000000000000/)],
      [3, expect.stringMatching(/event times must be seconds within/)],
    ]);
    expect([trace.startS, trace.endS]).toEqual([10, 20]);
  });

  it("reads a header without # and event_end_time for the stop column, in any column order, and gzip", async () => {
    const text = ["node_id event_type event_end_time event_start_time", "1 1 60 0", "1 0 120 60", "1 1 180 120"].join("\n");
    const trace = await readAvailabilityTrace(file("h.tab.gz", gzipSync(text)));
    expect([...trace.nodes[0]!.starts]).toEqual([0, 120]);
    expect([...trace.nodes[0]!.ends]).toEqual([60, 180]);
  });

  it("answers state and next-change queries", async () => {
    const trace = await readAvailabilityTrace(file("q.tab", [FTA_HEADER, "0 0 1 3 1 1 10 20 x", "1 0 1 3 1 1 30 40 x"].join("\n")));
    const node = trace.nodes[0]!;
    expect([availableAt(node, 5), availableAt(node, 10), availableAt(node, 19.9), availableAt(node, 20), availableAt(node, 35)]).toEqual([false, true, true, false, true]);
    expect([nextChangeAfter(node, 0), nextChangeAfter(node, 15), nextChangeAfter(node, 25), nextChangeAfter(node, 45)]).toEqual([10, 20, 30, Infinity]);
    expect(availableSeconds(node, 15, 35)).toBe(10); // 15–20 and 30–35
  });
});

describe("the .avt reader", () => {
  it("reads sessions per node and rejects inconsistent lines", async () => {
    const path = file(
      "t.avt",
      [
        "# a comment",
        "0 1 0 3600",
        "1 2 0 7200 10800 14400",
        "2 2 0 100", // says 2 sessions, holds 1 pair
        "3 1 500 400", // ends before it starts
        "4 2 0 500 400 600", // overlapping sessions
        "5 0",
      ].join("\n"),
    );
    const trace = await readAvailabilityTrace(path);
    expect(trace.nodes.map((n) => [n.key, [...n.starts], [...n.ends]])).toEqual([
      ["0", [0], [3600]],
      ["1", [0, 10800], [7200, 14400]],
      ["5", [], []],
    ]);
    expect(trace.rejects.map((r) => [r.line, r.reason])).toEqual([
      [4, "the line says 2 sessions but holds 1 pairs of times"],
      [5, "session 1 ends (400) before it starts (500)"],
      [6, "session 2 starts (400) before session 1 ends (500)"],
    ]);
    expect(trace.counts).toEqual({ lines: 7, accepted: 3, rejected: 3, comments: 1 });
    // Availability over [0, 14400]: node 0 1/4, node 1 3/4, node 5 0.
    expect(traceStatistics(trace).meanAvailability).toBeCloseTo((0.25 + 0.75 + 0) / 3, 12);
  });
});

describe("the real traces of data/availability/", () => {
  it("LANL (FTA): 43,325 intervals of 3,577 nodes, mean available interval 1779.99 h (PROVENANCE.md)", async () => {
    const trace = await readAvailabilityTrace(join(projectRoot(), "data", "availability", "lanl05-event-trace.tab.gz"));
    expect(trace.counts.lines).toBe(43_326);
    expect(trace.counts.comments).toBe(1);
    expect(trace.counts.accepted + trace.counts.rejected).toBe(43_325);
    expect(trace.nodes).toHaveLength(3577);
    expect(trace.sha256).toMatch(/^[0-9a-f]{64}$/);
    const stats = traceStatistics(trace);
    // The provenance's mean interval lengths were computed over the raw rows; ours merge touching
    // available rows and skip rejected ones, so they agree closely, not exactly.
    expect(stats.available.meanHours!).toBeGreaterThan(1700);
    expect(stats.available.meanHours!).toBeLessThan(1900);
  }, 60_000);

  it("Microsoft 1999 (.avt): 51,662 nodes over 35 days, mean availability 0.812 (PROVENANCE.md)", async () => {
    const trace = await readAvailabilityTrace(join(projectRoot(), "data", "availability", "microsoft99.avt.gz"));
    expect(trace.counts).toMatchObject({ lines: 51_663, rejected: 0 });
    expect(trace.nodes).toHaveLength(51_663);
    const stats = traceStatistics(trace);
    expect(stats.spanDays).toBe(35);
    expect(stats.meanAvailability).toBeCloseTo(0.812, 3);
    expect(stats.available.count).toBe(526_078);
    expect(stats.available.meanHours!).toBeCloseTo(67.01, 2);
  }, 60_000);
});
