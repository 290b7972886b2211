/**
 * The row ledger's verdicts and tallies on hand-written traces whose fate is known row by
 * row (pipeline/ingest/row-ledger.ts, reject-reasons.ts): the rejects per reason code,
 * their lines, the counts, and the accepted runs' aggregates. In process, so that mutation
 * testing can run it per mutant (the command tests spawn a process per case).
 */
import { describe, expect, it } from "vitest";
import { ingestCanonicalTexts } from "../../pipeline/ingest/ingest-files";
import { readCanonicalSource, type CanonicalParser } from "../../pipeline/ingest/canonical-reader";
import { memorySource } from "../../pipeline/ingest/byte-source";
import { createRowLedger } from "../../pipeline/ingest/row-ledger";
import { RunTable } from "../../pipeline/ingest/run-table";

const HEADER = "run_id,node,m,size_mb,ckpt_mb,start_s,end_s";
/** 10^308 MB written out: over 0.001 s its bandwidth, 10^311 MB/s, overflows a double. */
const HUGE_MB = `1${"0".repeat(308)}`;

describe.each<CanonicalParser>(["fast", "csv-parse"])("the rejects of a hand-written trace, per reason (%s parser)", (parser) => {
  // Each line's fate, by hand from the rules of row-ledger.ts and the codes of
  // reject-reasons.ts (line 1 is the header; null: the row is used).
  const lines: [string, string | null][] = [
    [HEADER, null],
    ["a,n1,2,100,100,0,10", null], // 2: run a, 100 MB / 10 s = 10 MB/s
    ["a,n2,2,100,100,0,20", null], // 3: 100 / 20 = 5 MB/s; run a = 15 MB/s
    ["b,n1,1,100,x,0,1", "non-numeric"], // 4: ckpt_mb is not a number
    ["c,n1,0,100,100,0,1", "invalid-m"], // 5: m = 0
    ["c2,n1,1.5,100,100,0,1", "invalid-m"], // 6: m not whole
    ["d,n1,1,0,100,0,1", "non-positive-size"], // 7
    ["e,n1,1,100,-1,0,1", "non-positive-ckpt"], // 8
    ["f,n1,1,100,100,5,4", "end-before-start"], // 9
    ["g,n1,1,100,100,4,4", "zero-duration"], // 10
    ["h,n1,2,100,100,0,1", "contradicting-m"], // 11: run h says m = 2 here ...
    ["h,n2,3,100,100,0,1", "contradicting-m"], // 12: ... and m = 3 here: the whole run is rejected
    ["i,,1,100,100,0,1", "empty-field"], // 13: node empty
    ['j,n1,1,100,"100,0,1', "malformed-csv"], // 14: the quote does not close on its line
    ["k,n1,2,100,100,0,1", "run-size-mismatch"], // 15: run k declares m = 2, has one valid row
    ["k,n1,2,100,100,0,2", "duplicate-process"], // 16: node n1 again in run k
    [`l,n1,1,100,${HUGE_MB},0,0.001`, "bandwidth-out-of-range"], // 17
    ["m,n1,1,100,100,0,2", null], // 18: run m, 100 / 2 = 50 MB/s
  ];
  const text = `${lines.map(([row]) => row).join("\n")}\n`;
  const expected: Record<string, number> = {};
  for (const [, code] of lines) if (code !== null) expected[code] = (expected[code] ?? 0) + 1;

  it("tallies rejectedByCode as the hand count, and rejects exactly the lines marked", async () => {
    // By hand: 14 rejects, 12 reasons (invalid-m and contradicting-m twice each).
    expect(Object.values(expected).reduce((a, b) => a + b, 0)).toBe(14);
    const result = await ingestCanonicalTexts([{ name: "known.csv", text }], { canonicalParser: parser });
    expect(result.rejectedByCode).toEqual(expected);
    expect(result.counts).toEqual({ read: 17, accepted: 3, rejected: 14 });
    expect(result.rejects.map((r) => [r.file, r.line, r.code])).toEqual(lines.flatMap(([, code], i) => (code === null ? [] : [["known.csv", i + 1, code]])));
    // Each reject's raw text is its line as written.
    expect(result.rejects.map((r) => r.raw)).toEqual(lines.filter(([, code]) => code !== null).map(([row]) => row));
    // The accepted runs: a = 10 + 5 = 15 MB/s over V = 2 · 100 MB = 0.2 GB; m = 50 MB/s, 0.1 GB.
    expect(result.observations.runs.map((r) => [r.runId, r.m, r.vGb, r.aggregatedBwMbPerS, r.uniformSizeMb])).toEqual([
      ["a", 2, 0.2, 15, 100],
      ["m", 1, 0.1, 50, 100],
    ]);
  });
});

describe.each<CanonicalParser>(["fast", "csv-parse"])("runs whose rows are not consecutive, in two files (%s parser)", (parser) => {
  const one = [
    "run_id,node,m,size_mb,ckpt_mb,start_s,end_s,cluster",
    "r1,n1,2,10,10,0,1,azur", // 2: run r1, 10 / 1 = 10 MB/s
    "r2,n1,1,20,40,0,2,azur", // 3: run r2 (m = 1), 40 / 2 = 20 MB/s
    "r1,n2,2,10,10,0,2,azur", // 4: r1 again after r2: 10 / 2 = 5 MB/s, r1 = 15 MB/s
    "r3,n1,2,10,10,0,1,azur", // 5: run r3 with m = 2 ...
    "r1,n2,2,10,10,0,4,azur", // 6: duplicate of line 4 (node n2 of r1)
    "r3,n2,3,10,10,0,1,orsay", // 7: ... and m = 3: every row of r3 rejected (lines 5, 7)
    "r4,n1,2,10,10,0,1,azur", // 8: run r4 with m = 2, its only valid row: rejected with the run
    "r4,n2,2,10,10,0,x,azur", // 9: not a number (r4's own reject)
    "r5,n1,2,10,10,0,1,azur", // 10: run r5: 10 MB/s ...
    "r5,n2,2,30,30,0,1,orsay", // 11: ... and 30 MB/s: 40 MB/s, mixed sizes (V = 0.04 GB), clusters disagree
  ];
  const two = [
    "run_id,node,m,size_mb,ckpt_mb,start_s,end_s",
    "r1,n1,1,10,10,0,1", // 2: another run r1 (runs never span files), 10 MB/s
    "z,n1,1,10,10,7,7", // 3: zero duration
  ];
  const texts = [
    { name: "one.csv", text: `${one.join("\n")}\n` },
    { name: "two.csv", text: `${two.join("\n")}\n` },
  ];

  it("rejects in line order with each reason's message, tallies them, and aggregates the accepted runs", async () => {
    const result = await ingestCanonicalTexts(texts, { canonicalParser: parser });
    // By hand: 10 + 2 rows read, 6 rejected (lines 5–9 of one, 3 of two), 6 used (r1 ×2, r2, r5 ×2; r1 of two).
    expect(result.counts).toEqual({ read: 12, accepted: 6, rejected: 6 });
    expect(result.rejectedByCode).toEqual({ "contradicting-m": 2, "duplicate-process": 1, "run-size-mismatch": 1, "non-numeric": 1, "zero-duration": 1 });
    const contradiction = 'run "r3" mixes contradicting m (m = 2 at one.csv:5, m = 3 at one.csv:7); all rows of a run must give the same m, so the whole run is rejected';
    expect(result.rejects.map((r) => [r.file, r.line, r.code, r.reason])).toEqual([
      ["one.csv", 5, "contradicting-m", contradiction],
      ["one.csv", 6, "duplicate-process", 'duplicate process: run "r1" already has node "n2" (first at one.csv:4); only the first row counts in the run'],
      ["one.csv", 7, "contradicting-m", contradiction],
      ["one.csv", 8, "run-size-mismatch", 'run "r4" declares m = 2 but has 1 valid row (1 other row was rejected); a run\'s aggregated bandwidth needs all of its m processes, so the whole run is rejected'],
      ["one.csv", 9, "non-numeric", 'end_s must be a finite decimal number, found "x"'],
      ["two.csv", 3, "zero-duration", "end_s equals start_s (7): a checkpoint takes a positive time, the bandwidth would be infinite"],
    ]);
    expect(result.rejects.map((r) => r.raw)).toEqual([one[4], one[5], one[6], one[7], one[8], two[2]]);
    // The runs in the order first met; V = Σ size_mb / 1000; cluster kept where the run's rows agree.
    expect(result.observations.runs).toEqual([
      { runId: "r1", m: 2, vGb: 0.02, aggregatedBwMbPerS: 15, uniformSizeMb: 10, source: "one.csv", attributes: { cluster: "azur" } },
      { runId: "r2", m: 1, vGb: 0.02, aggregatedBwMbPerS: 20, uniformSizeMb: 20, source: "one.csv", attributes: { cluster: "azur" } },
      { runId: "r5", m: 2, vGb: 0.04, aggregatedBwMbPerS: 40, uniformSizeMb: null, source: "one.csv" },
      { runId: "r1", m: 1, vGb: 0.01, aggregatedBwMbPerS: 10, uniformSizeMb: 10, source: "two.csv" },
    ]);
    expect(result.observations.validationRuns.map((r) => r.runId)).toEqual(["r5"]);
    // Size 10: m = 1 {10} (two's r1), m = 2 {15}; size 20: m = 1 {20}.
    expect(result.observations.series.map((s) => [s.sizeMb, s.points.map((p) => [p.m, p.count, p.meanBwMbPerS]), s.peak])).toEqual([
      [10, [[1, 1, 10], [2, 1, 15]], { m: 2, bwMbPerS: 15 }],
      [20, [[1, 1, 20]], { m: 1, bwMbPerS: 20 }],
    ]);
  });

  it("stops at the first bad row in strict mode, and at a run's first row for a run-level problem", async () => {
    await expect(ingestCanonicalTexts(texts, { canonicalParser: parser, strict: true })).rejects.toThrow(/^one\.csv:6: duplicate process: run "r1" already has node "n2" \(first at one\.csv:4\)/);
    const mismatch = [{ name: "m.csv", text: "run_id,node,m,size_mb,ckpt_mb,start_s,end_s\nok,n1,1,1,1,0,1\nk,n1,3,1,1,0,1\nk,n2,3,1,1,0,1\n" }];
    await expect(ingestCanonicalTexts(mismatch, { canonicalParser: parser, strict: true })).rejects.toThrow(/^m\.csv:3: run "k" declares m = 3 but has 2 valid rows; /);
  });
});

describe("large runs and many runs", () => {
  const header = "run_id,node,m,size_mb,ckpt_mb,start_s,end_s";

  it.each<CanonicalParser>(["fast", "csv-parse"])("finds a duplicate among 300 processes of one run (past the linear search and the first row columns; %s parser)", async (parser) => {
    // Process i (0..299) writes i + 1 MB in 1 s: Σ = 300 · 301 / 2 = 45 150 MB/s; V = 300 · 2 MB = 0.6 GB.
    const rows = Array.from({ length: 300 }, (_, i) => `big,n${i},300,2,${i + 1},0,1`);
    // n7 again (its first row is line 2 + 7 = 9), after all 300 rows and after 40 rows.
    const text = [header, ...rows.slice(0, 40), "big,n7,300,2,1,0,1", ...rows.slice(40), "big,n299,300,2,1,0,1", ""].join("\n");
    const result = await ingestCanonicalTexts([{ name: "t.csv", text }], { canonicalParser: parser });
    expect(result.counts).toEqual({ read: 302, accepted: 300, rejected: 2 });
    // n7 is line 9 and its duplicate line 42; n299 is line 2 + 299 + 1 = 302 and its duplicate line 303.
    expect(result.rejects.map((r) => [r.line, r.code, r.reason])).toEqual([
      [42, "duplicate-process", 'duplicate process: run "big" already has node "n7" (first at t.csv:9); only the first row counts in the run'],
      [303, "duplicate-process", 'duplicate process: run "big" already has node "n299" (first at t.csv:302); only the first row counts in the run'],
    ]);
    expect(result.observations.runs).toEqual([{ runId: "big", m: 300, vGb: 0.6, aggregatedBwMbPerS: 45150, uniformSizeMb: 2, source: "t.csv" }]);
  });

  it("rejects all 300 rows of a run one process short, each with the run's reason", async () => {
    const rows = Array.from({ length: 300 }, (_, i) => `big,n${i},301,2,1,0,1`);
    const result = await ingestCanonicalTexts([{ name: "t.csv", text: [header, ...rows, "ok,n1,1,2,1,0,1", ""].join("\n") }]);
    expect(result.rejectedByCode).toEqual({ "run-size-mismatch": 300 });
    expect(result.rejects.map((r) => r.line)).toEqual(Array.from({ length: 300 }, (_, i) => i + 2));
    expect(new Set(result.rejects.map((r) => r.reason))).toEqual(new Set(['run "big" declares m = 301 but has 300 valid rows; a run\'s aggregated bandwidth needs all of its m processes, so the whole run is rejected']));
    expect(result.rejects[299]!.raw).toBe("big,n299,301,2,1,0,1");
    expect(result.observations.runs.map((r) => r.runId)).toEqual(["ok"]);
  });

  it("keeps 1100 runs with their attribute records, one record per distinct value set", async () => {
    // Run i: m = 1, cluster a (i even) or b (i odd), disk x (i mod 3 = 0) or y; bandwidth i + 1 MB/s.
    const rows = Array.from({ length: 1100 }, (_, i) => `r${i},n1,1,2,${i + 1},0,1,${i % 2 === 0 ? "a" : "b"},${i % 3 === 0 ? "x" : "y"}`);
    const ledger = createRowLedger();
    await readCanonicalSource(memorySource("t.csv", [`${header},cluster,disk`, ...rows, ""].join("\n")), ledger);
    const { runs, read, rejected, rejectedByCode } = ledger.finish();
    expect([read, rejected, rejectedByCode, runs.length]).toEqual([1100, 0, {}, 1100]);
    // Records in order of first use: r0 (a, x), r1 (b, y), r2 (a, y), r3 (b, x).
    expect(runs.attributeSets).toEqual([
      { cluster: "a", disk: "x" },
      { cluster: "b", disk: "y" },
      { cluster: "a", disk: "y" },
      { cluster: "b", disk: "x" },
    ]);
    // i mod 6 decides the record: 0 → 0, 1 → 1, 2 → 2, 3 → 3, 4 → (a, y) 2, 5 → (b, y) 1.
    const recordOf = [0, 1, 2, 3, 2, 1];
    for (const i of [0, 1, 2, 3, 4, 5, 1023, 1024, 1025, 1099]) {
      expect([runs.runId(i), runs.bwMbPerS[i], runs.attributeSetIndex(i)]).toEqual([`r${i}`, i + 1, recordOf[i % 6]]);
    }
  });

  it("keeps only the attributes a run's rows agree on", async () => {
    const text = [
      `${header},cluster,disk`,
      "p,n1,2,1,1,0,1,a,x",
      "p,n2,2,1,1,0,1,a,y", // p: disk disagrees, cluster kept
      "q,n1,2,1,1,0,1,a,x",
      "q,n2,2,1,1,0,1,b,y", // q: both disagree: no record
      "s,n1,1,1,1,0,1,a,x", // s: (a, x)
      "",
    ].join("\n");
    const ledger = createRowLedger();
    await readCanonicalSource(memorySource("t.csv", text), ledger);
    const { runs } = ledger.finish();
    expect(runs.attributeSets).toEqual([{ cluster: "a" }, { cluster: "a", disk: "x" }]);
    expect([0, 1, 2].map((i) => [runs.runId(i), runs.attributeSetIndex(i)])).toEqual([
      ["p", 0],
      ["q", -1],
      ["s", 1],
    ]);
  });
});

describe("the ledger fed row by row, with the rows' text (as the host-logs reader does)", () => {
  /** A source whose rows are never read back: the reader gives their text. */
  const hostSource = (name: string) => ({ name, readRaw: (): string => { throw new Error("the rows come with their text"); } });

  it("keeps scattered runs' rows in memory, notes attributes only from a run's first row, and hands the rejects in line order", () => {
    const rejects: { file: string; line: number; code?: string; reason: string; raw: string }[] = [];
    const ledger = createRowLedger({ onReject: (row) => rejects.push(row) });
    const src = ledger.addSource(hostSource("dir"));
    ledger.openScope("dir", ["cluster"]);
    const add = (runId: string, node: string, m: number, bw: number, line: number, cluster?: string) => {
      const run = ledger.addProcess(ledger.runKeyOfText(runId), ledger.nodeKeyOfText(node), m, 10, bw, src, line, 0, 0, `${runId} ${node} ${line}`);
      if (run >= 0 && cluster !== undefined) ledger.noteAttribute(run, 0, ledger.attributeKeyOfText(0, cluster));
      return run;
    };
    expect(add("A", "p1", 2, 5, 1, "azur")).toBe(0);
    expect(add("B", "p1", 1, 7, 2, "orsay")).toBe(1);
    expect(add("A", "p2", 2, 6, 3, "azur")).toBe(0); // A again after B: scattered
    expect(add("A", "p1", 2, 9, 4, "azur")).toBe(-1); // duplicate of line 1
    add("C", "p1", 2, 1, 5); // C: one row of 2
    ledger.reject(src, 6, 0, 0, "a bad line", "malformed-event", "malformed event line: x");
    add("E", "p1", 2, 1, 7); // E's first row lacks the attribute ...
    add("E", "p2", 2, 2, 8, "azur"); // ... so E keeps none
    expect(ledger.read).toBe(8);
    ledger.closeScope();
    const { runs, read, rejected, rejectedByCode } = ledger.finish();
    expect([read, rejected, rejectedByCode]).toEqual([8, 3, { "duplicate-process": 1, "run-size-mismatch": 1, "malformed-event": 1 }]);
    expect(rejects).toEqual([
      { file: "dir", line: 4, code: "duplicate-process", reason: 'duplicate process: run "A" already has node "p1" (first at dir:1); only the first row counts in the run', raw: "A p1 4" },
      { file: "dir", line: 5, code: "run-size-mismatch", reason: 'run "C" declares m = 2 but has 1 valid row; a run\'s aggregated bandwidth needs all of its m processes, so the whole run is rejected', raw: "C p1 5" },
      { file: "dir", line: 6, code: "malformed-event", reason: "malformed event line: x", raw: "a bad line" },
    ]);
    // A: 5 + 6 = 11 MB/s, Σ size 20 MB; B: 7; E: 1 + 2 = 3.
    expect(Array.from({ length: runs.length }, (_, i) => runs.observation(i))).toEqual([
      { runId: "A", m: 2, vGb: 0.02, aggregatedBwMbPerS: 11, uniformSizeMb: 10, source: "dir", attributes: { cluster: "azur" } },
      { runId: "B", m: 1, vGb: 0.01, aggregatedBwMbPerS: 7, uniformSizeMb: 10, source: "dir", attributes: { cluster: "orsay" } },
      { runId: "E", m: 2, vGb: 0.02, aggregatedBwMbPerS: 3, uniformSizeMb: 10, source: "dir" },
    ]);
  });

  it("counts a run's own rejects in its message, names a contradiction's m values once each, and throws in strict mode", () => {
    const rejects: { line: number; reason: string }[] = [];
    const ledger = createRowLedger({ onReject: (row) => rejects.push(row) });
    const src = ledger.addSource(hostSource("d"));
    ledger.openScope("d");
    const key = ledger.runKeyOfText("K");
    ledger.addProcess(key, ledger.nodeKeyOfText("p1"), 3, 1, 1, src, 1, 0, 0, "k1");
    ledger.reject(src, 2, 0, 0, "k2", "non-numeric", "own reason", key);
    ledger.reject(src, 3, 0, 0, "k3", "non-numeric", "own reason", key);
    const w = ledger.runKeyOfText("W");
    // W: m = 2, then 3, 2 again, 4, 5, 6: the message lists each m once, at most four.
    [2, 3, 2, 4, 5, 6].forEach((m, i) => ledger.addProcess(w, ledger.nodeKeyOfText(`p${i}`), m, 1, 1, src, 4 + i, 0, 0, `w${i}`));
    ledger.closeScope();
    expect(ledger.finish().rejectedByCode).toEqual({ "run-size-mismatch": 1, "non-numeric": 2, "contradicting-m": 6 });
    expect(rejects[0]).toEqual({ file: "d", line: 1, code: "run-size-mismatch", raw: "k1", reason: 'run "K" declares m = 3 but has 1 valid row (2 other rows were rejected); a run\'s aggregated bandwidth needs all of its m processes, so the whole run is rejected' });
    expect(rejects[3]!.reason).toBe('run "W" mixes contradicting m (m = 2 at d:4, m = 3 at d:5, m = 4 at d:7, m = 5 at d:8); all rows of a run must give the same m, so the whole run is rejected');
    expect(rejects.map((r) => r.line)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);

    const strict = createRowLedger({ strict: true });
    const s = strict.addSource(hostSource("d"));
    strict.openScope("d");
    const k = strict.runKeyOfText("K");
    strict.addProcess(k, strict.nodeKeyOfText("p1"), 2, 1, 1, s, 1, 0, 0, "k1");
    expect(() => strict.addProcess(k, strict.nodeKeyOfText("p2"), 3, 1, 1, s, 2, 0, 0, "k2")).toThrow('d:2: run "K" mixes contradicting m (m = 2 at d:1, m = 3 at d:2); all rows of a run must give the same m, so the whole run is rejected');
    expect(() => strict.reject(s, 3, 0, 0, "x", "non-numeric", "a reason")).toThrow(/^d:3: a reason$/);
  });

  it("appends the tail another thread read: its runs after the scope's, its rows to the counts, its rejects to the tally", () => {
    const rejects: { line: number; code?: string; raw: string }[] = [];
    const ledger = createRowLedger({ onReject: (row) => rejects.push(row) });
    const src = ledger.addSource(hostSource("f"));
    ledger.openScope("f");
    ledger.addProcess(ledger.runKeyOfText("X"), ledger.nodeKeyOfText("p"), 1, 4, 8, src, 1, 0, 0, "x");
    expect(() => ledger.appendTail({ runs: new RunTable(), read: 0, rejects: [] })).toThrow("appendTail: close the scope first");
    ledger.closeScope();
    const tail = new RunTable();
    tail.sources.push("f");
    tail.append(Buffer.from("Y"), 1, 4, 9, 4, 0, -1);
    ledger.appendTail({
      runs: tail,
      read: 3,
      rejects: [
        { sourceIndex: src, line: 7, byteStart: 0, byteEnd: 0, raw: "bad 7", code: "non-numeric", reason: "r7" },
        { sourceIndex: src, line: 8, byteStart: 0, byteEnd: 0, raw: "bad 8", code: "zero-duration", reason: "r8" },
      ],
    });
    const result = ledger.finish();
    // 1 row of the scope + 3 of the tail; 2 of them rejected.
    expect([result.read, result.rejected, result.rejectedByCode]).toEqual([4, 2, { "non-numeric": 1, "zero-duration": 1 }]);
    expect(rejects).toEqual([
      { file: "f", line: 7, code: "non-numeric", reason: "r7", raw: "bad 7" },
      { file: "f", line: 8, code: "zero-duration", reason: "r8", raw: "bad 8" },
    ]);
    expect([result.runs.length, result.runs.runId(0), result.runs.runId(1), result.runs.sourceOf(1)]).toEqual([2, "X", "Y", "f"]);
  });

  it("knows the run_ids its open scope has met, valid or rejected", () => {
    const ledger = createRowLedger();
    ledger.addSource(hostSource("f"));
    ledger.openScope("f");
    ledger.runKeyOfText("abc");
    ledger.runKeyOfText("de");
    const bytes = Buffer.from("xabcdex");
    expect([ledger.hasRunId(bytes, 1, 4), ledger.hasRunId(bytes, 4, 6), ledger.hasRunId(bytes, 1, 3), ledger.hasRunId(bytes, 0, 4)]).toEqual([true, true, false, false]);
    const snapshot = ledger.runIdSnapshot();
    expect(Array.from(snapshot.lengths)).toEqual([3, 2]);
    expect(Buffer.from(snapshot.arena).toString("utf8", snapshot.starts[1]!, snapshot.starts[1]! + 2)).toBe("de");
  });

  it("refuses scopes out of order, and after abort starts afresh", () => {
    const ledger = createRowLedger();
    const src = ledger.addSource(hostSource("a"));
    expect(() => ledger.closeScope()).toThrow("closeScope: no scope is open");
    ledger.openScope("a");
    expect(() => ledger.openScope("b")).toThrow("openScope(b): scope a is still open");
    expect(() => ledger.finish()).toThrow("RowLedger.finish: scope a is still open");
    ledger.addProcess(ledger.runKeyOfText("gone"), ledger.nodeKeyOfText("p"), 1, 1, 1, src, 1, 0, 0, "g");
    ledger.abort();
    ledger.openScope("b");
    expect(ledger.runKeyOfText("kept")).toBe(0); // the aborted scope's run_ids are gone
    ledger.addProcess(0, ledger.nodeKeyOfText("p"), 1, 1, 1, src, 1, 0, 0, "k");
    ledger.closeScope();
    const { runs } = ledger.finish();
    expect([runs.length, runs.runId(0), runs.sourceOf(0)]).toEqual([1, "kept", "b"]);
  });
});

describe.each<CanonicalParser>(["fast", "csv-parse"])("a row of the wrong length, counted against its run when its run_id is there (%s parser)", (parser) => {
  it("with run_id the last column: a short row has none, a long one has it", async () => {
    const text = [
      "node,m,size_mb,ckpt_mb,start_s,end_s,run_id",
      "n1,2,1,1,0,1,k", // 2: run k, one valid row of 2
      "n2,2,1,1,0,1", // 3: 6 fields: no run_id field, so no run it counts against
      "n1,2,1,1,0,1,q", // 4: run q, one valid row of 2
      "n2,2,1,1,0,1,q,extra", // 5: 8 fields, the 7th is q: counted against q
      "",
    ].join("\n");
    const result = await ingestCanonicalTexts([{ name: "t.csv", text }], { canonicalParser: parser });
    const tail = "; a run's aggregated bandwidth needs all of its m processes, so the whole run is rejected";
    expect(result.rejects.map((r) => [r.line, r.code, r.reason])).toEqual([
      [2, "run-size-mismatch", `run "k" declares m = 2 but has 1 valid row${tail}`],
      [3, "field-count", "missing fields: expected 7 fields (as in the header), found 6; check for a lost or extra comma, or quote a value that contains a comma"],
      [4, "run-size-mismatch", `run "q" declares m = 2 but has 1 valid row (1 other row was rejected)${tail}`],
      [5, "field-count", "extra fields: expected 7 fields (as in the header), found 8; check for a lost or extra comma, or quote a value that contains a comma"],
    ]);
  });
});

describe("sealed runs read back from their source", () => {
  /**
   * A source whose row on line L takes the bytes [100 L, 100 L + 50) and whose rescan visits
   * the rows given (each call recorded), as a canonical file's reader would re-read them.
   */
  function fileSource(name: string, rows: { line: number; runId: string; node: string }[]) {
    const calls: [number, number, number][] = [];
    return {
      calls,
      source: {
        name,
        readRaw: (start: number, end: number) => `bytes ${start}-${end}`,
        rescan(fromByte: number, toByte: number, fromLine: number, visit: (row: { line: number; byteStart: number; byteEnd: number; runId: string; node: string }) => void) {
          calls.push([fromByte, toByte, fromLine]);
          for (const row of rows) if (row.line * 100 >= fromByte && row.line * 100 + 50 <= toByte) visit({ ...row, byteStart: row.line * 100, byteEnd: row.line * 100 + 50 });
        },
      },
    };
  }
  const addAt = (ledger: ReturnType<typeof createRowLedger>, src: number, runId: string, node: string, m: number, bw: number, line: number) =>
    ledger.addProcess(ledger.runKeyOfText(runId), ledger.nodeKeyOfText(node), m, 1, bw, src, line, line * 100, line * 100 + 50, null);

  it("re-reads a rejected sealed run's extent for its rows (other runs' rows and duplicates skipped), their text from their bytes", () => {
    const file = fileSource("f.csv", [
      { line: 2, runId: "A", node: "n1" },
      { line: 3, runId: "Z", node: "n1" }, // another run inside A's extent
      { line: 4, runId: "A", node: "n1" }, // a duplicate, rejected when it was read
      { line: 5, runId: "A", node: "n2" },
    ]);
    const rejects: { line: number; code?: string; raw: string }[] = [];
    const ledger = createRowLedger({ onReject: (row) => rejects.push({ line: row.line, code: row.code, raw: row.raw }) });
    const src = ledger.addSource(file.source);
    ledger.openScope("f.csv");
    addAt(ledger, src, "A", "n1", 3, 1, 2);
    ledger.reject(src, 3, 300, 350, null, "non-numeric", "z is bad"); // Z's row, rejected on its own
    expect(addAt(ledger, src, "A", "n1", 3, 1, 4)).toBe(-1);
    addAt(ledger, src, "A", "n2", 3, 1, 5); // A: 2 valid rows of 3
    addAt(ledger, src, "B", "n1", 1, 1, 6); // B starts: A is sealed with the extent [200, 550)
    ledger.closeScope();
    expect(file.calls).toEqual([[200, 550, 2]]);
    expect(rejects).toEqual([
      { line: 2, code: "run-size-mismatch", raw: "bytes 200-250" },
      { line: 3, code: "non-numeric", raw: "bytes 300-350" },
      { line: 4, code: "duplicate-process", raw: "bytes 400-450" },
      { line: 5, code: "run-size-mismatch", raw: "bytes 500-550" },
    ]);
    const { runs, read, rejected } = ledger.finish();
    expect([read, rejected, runs.length, runs.runId(0)]).toEqual([5, 4, 1, "B"]);
  });

  it("brings a sealed run back when a later row belongs to it, and finds a duplicate among its rows read back", () => {
    const file = fileSource("f.csv", [{ line: 2, runId: "A", node: "n1" }]);
    const rejects: { line: number; reason: string }[] = [];
    const ledger = createRowLedger({ onReject: (row) => rejects.push({ line: row.line, reason: row.reason }) });
    const src = ledger.addSource(file.source);
    ledger.openScope("f.csv");
    addAt(ledger, src, "A", "n1", 2, 4, 2);
    addAt(ledger, src, "B", "n1", 1, 1, 3); // seals A: [200, 250)
    addAt(ledger, src, "A", "n2", 2, 6, 4); // A again: read back once, then kept in memory
    addAt(ledger, src, "A", "n1", 2, 9, 5); // duplicate of line 2
    addAt(ledger, src, "C", "n1", 1, 1, 6);
    ledger.closeScope();
    expect(file.calls).toEqual([[200, 250, 2]]);
    expect(rejects).toEqual([{ line: 5, reason: 'duplicate process: run "A" already has node "n1" (first at f.csv:2); only the first row counts in the run' }]);
    const { runs } = ledger.finish();
    // A: 4 + 6 = 10 MB/s.
    expect(Array.from({ length: runs.length }, (_, i) => [runs.runId(i), runs.bwMbPerS[i]])).toEqual([
      ["A", 10],
      ["B", 1],
      ["C", 1],
    ]);
  });

  it("says the file changed when the run's rows are not found again", () => {
    const file = fileSource("f.csv", []);
    const ledger = createRowLedger();
    const src = ledger.addSource(file.source);
    ledger.openScope("f.csv");
    addAt(ledger, src, "A", "n1", 2, 1, 2);
    addAt(ledger, src, "B", "n1", 1, 1, 3);
    expect(() => addAt(ledger, src, "A", "n2", 2, 1, 4)).toThrow('ingest: re-reading run "A" of f.csv found 0 rows, not 1; did the file change while it was read?');
  });
});

describe("survivors of the first mutation run", () => {
  const source = (name: string) => ({ name, readRaw: (): string => { throw new Error("the rows come with their text"); } });

  it("names a contradicting m once even when it comes back (not only the run's own m)", () => {
    const rejects: string[] = [];
    const ledger = createRowLedger({ onReject: (row) => rejects.push(row.reason) });
    const src = ledger.addSource(source("d"));
    ledger.openScope("d");
    const w = ledger.runKeyOfText("W");
    // m = 2 (the run's), 3, 3 again, 4 on lines 1–4: the list is 2, 3, 4.
    [2, 3, 3, 4].forEach((m, i) => ledger.addProcess(w, ledger.nodeKeyOfText(`p${i}`), m, 1, 1, src, i + 1, 0, 0, `w${i}`));
    ledger.closeScope();
    expect(new Set(rejects)).toEqual(new Set(['run "W" mixes contradicting m (m = 2 at d:1, m = 3 at d:2, m = 4 at d:4); all rows of a run must give the same m, so the whole run is rejected']));
  });

  it("reports in strict mode the first bad run of a scope when it is the scope's first run", async () => {
    // Runs k (line 2) and q (line 4) are both one row short; k comes first.
    const text = "run_id,node,m,size_mb,ckpt_mb,start_s,end_s\nk,n1,2,1,1,0,1\nok,n1,1,1,1,0,1\nq,n1,2,1,1,0,1\n";
    await expect(ingestCanonicalTexts([{ name: "s.csv", text }], { strict: true })).rejects.toThrow(/^s\.csv:2: run "k" declares m = 2 but has 1 valid row;/);
    const onlyFirst = "run_id,node,m,size_mb,ckpt_mb,start_s,end_s\nk,n1,2,1,1,0,1\n";
    await expect(ingestCanonicalTexts([{ name: "s.csv", text: onlyFirst }], { strict: true })).rejects.toThrow(/^s\.csv:2: run "k"/);
  });

  it("labels a scope's runs with one source entry, none for a scope without an accepted run", () => {
    const ledger = createRowLedger();
    const src = ledger.addSource(source("a"));
    ledger.openScope("a");
    for (const id of ["x", "y", "z"]) ledger.addProcess(ledger.runKeyOfText(id), ledger.nodeKeyOfText("p"), 1, 1, 1, src, 1, 0, 0, id);
    ledger.closeScope();
    ledger.openScope("empty");
    ledger.closeScope();
    const { runs } = ledger.finish();
    expect(runs.sources).toEqual(["a"]);
  });

  it("keeps the line of every row of a 300-process run held in memory (past its first 256 rows)", () => {
    const lines: number[] = [];
    const ledger = createRowLedger({ onReject: (row) => lines.push(row.line) });
    const src = ledger.addSource(source("h"));
    ledger.openScope("h");
    const key = ledger.runKeyOfText("big");
    // 300 rows of a run of m = 301 (one short) on lines 1..300: all rejected, each at its line.
    for (let i = 0; i < 300; i++) ledger.addProcess(key, ledger.nodeKeyOfText(`p${i}`), 301, 1, 1, src, i + 1, 0, 0, `row ${i}`);
    ledger.closeScope();
    expect(lines).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
  });

  it("makes room, when the scope closes, for the runs announced to come after it", () => {
    const ledger = createRowLedger();
    const src = ledger.addSource(source("a"));
    ledger.openScope("a");
    ledger.addProcess(ledger.runKeyOfText("x"), ledger.nodeKeyOfText("p"), 1, 1, 1, src, 1, 0, 0, "x");
    ledger.reserveRuns(5000, 0);
    ledger.closeScope();
    // 1 run of the scope + 5000 announced: the columns hold at least 5001 (they start at 1024).
    expect(ledger.finish().runs.m.length).toBeGreaterThanOrEqual(5001);
  });
});
