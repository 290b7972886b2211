/**
 * The row ledger's verdicts and tallies on hand-written traces whose fate is known row by
 * row (pipeline/ingest/row-ledger.ts, reject-reasons.ts): the rejects per reason code,
 * their lines, the counts, and the accepted runs' aggregates. In process, so that mutation
 * testing can run it per mutant (the command tests spawn a process per case).
 */
import { describe, expect, it } from "vitest";
import { ingestCanonicalTexts } from "../../pipeline/ingest/ingest-files";

const HEADER = "run_id,node,m,size_mb,ckpt_mb,start_s,end_s";
/** 10^308 MB written out: over 0.001 s its bandwidth, 10^311 MB/s, overflows a double. */
const HUGE_MB = `1${"0".repeat(308)}`;

describe("the rejects of a hand-written trace, per reason", () => {
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
    const result = await ingestCanonicalTexts([{ name: "known.csv", text }]);
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
