/**
 * The reproduction rows of the tables transcribed in data/published/: each printed value is
 * pinned here next to its source (paper, table, row, column), and ours next to its origin —
 * the independent computation of test/reproduce/reference/transcribed-tables.py (plain Python
 * from the printed numbers, output committed as transcribed-tables.json) or the algorithm's
 * own documented result.
 */
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { PAPER_MODEL } from "../../pipeline/fit/model";
import { impliedSingleProcessRates } from "../../pipeline/reproduce/identical-size-rows";
import { measuredSingleProcessRate } from "../../pipeline/reproduce/measured-single-process-rate";
import { publishedTableRows } from "../../pipeline/reproduce/published-table-rows";
import { PUBLISHED_DIR, readPublishedTables, type PublishedTables } from "../../pipeline/reproduce/published-tables";
import type { ReproductionRow } from "../../pipeline/reproduce/reproduction";
import { runCampaign } from "../../pipeline/schedule";
import { expectClose } from "../helpers";

const reference = JSON.parse(readFileSync("test/reproduce/reference/transcribed-tables.json", "utf8")) as {
  peaks: Record<string, { m: number; bw: number }>;
  table43: Record<string, number>;
  example: { walk: number[]; bw8at2155: number; static: Record<string, number>; fluid: Record<string, number[]>; bestFeasibleP: number; bestFeasibleSet: number[] };
  table72: Record<string, { rate: number; checkpointed: number; ctnys: number }>;
};

const options = { modelLabel: "published model", bandwidthRelative: 0.05 };
let published: PublishedTables;
let rows: ReproductionRow[];
let withoutCampaign: ReproductionRow[];
const row = (id: string) => {
  const found = rows.find((r) => r.id === id);
  if (!found) throw new Error(`no row ${id}`);
  return found;
};

beforeAll(() => {
  published = readPublishedTables(PUBLISHED_DIR);
  const campaign = runCampaign({
    model: PAPER_MODEL, domain: "refuse", estimator: "static", parts: ["A", "B", "C", "waves"], seeds: 20, firstSeed: 1,
    k0s: [0, 1, 2], criteria: ["p", "density"], exact: null, scalingNs: [], scalingSeeds: 1,
  });
  rows = publishedTableRows(published, PAPER_MODEL, options, campaign);
  withoutCampaign = publishedTableRows(published, PAPER_MODEL, options);
});

describe("every transcribed number has its row", () => {
  it("one row per printed cell the project can recompute, each with a unique id", () => {
    expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
    const count = (prefix: RegExp) => rows.filter((r) => prefix.test(r.id)).length;
    // [Y11] Table 1 / [Y-thesis] Table 4.2, estimated ī and bw_ī of D1–D3 (the two papers print the same cells).
    expect(count(/^D\d\/estimated-/)).toBe(6);
    // [Y-thesis] Table 4.3: 43 times, and the two cells printed "4 x 50" in a 400 MB column.
    expect(count(/^table-4\.3\/.*\/time$/)).toBe(43);
    expect(count(/^table-4\.3\/.*\/process-size$/)).toBe(2);
    // Table 5.1: 7 aggregate sizes and 7 bandwidths; §5.4.2: S_8, bw(8, 2055), I, and P_MAX twice per k0.
    expect(count(/^table-5\.1\//)).toBe(14);
    expect(count(/^example-5\.4\.2\//)).toBe(7);
    // Tables 5.2, 5.3: 8 sizes and 8 states each; a time per checkpointed process (5 and 6; the others print 0).
    expect(count(/^table-5\.[23]\/.*\/(size|checkpointed)$/)).toBe(32);
    expect(count(/^table-5\.[23]\/.*\/time$/)).toBe(11);
    // Tables 7.1, 7.2: 5 sizes × (nb ckpt, CTNYS, RCTNYS).
    expect(count(/^table-7\.1\//)).toBe(15);
    expect(count(/^schedule\/identical\//)).toBe(15);
    // Tables 7.3–7.8: 18 rows × (CTNYS, share, RCTNYS, time), 12 time ratios, 3 instances' Σ p.
    expect(count(/^table-7\.[3-8]\/k0=\d\/(ctnys|share|rctnys|scheduler-time)$/)).toBe(72);
    expect(count(/^table-7\.[3-8]\/time-ratio\//)).toBe(12);
    expect(count(/^thesis\/[ABC]\/total-p$/)).toBe(3);
    // Tables 7.9, 7.10: CTNYS, share, RCTNYS and time each, and the instance's Σ p.
    expect(count(/^schedule\/waves\//)).toBe(9);
    expect(rows).toHaveLength(6 + 45 + 14 + 7 + 43 + 30 + 87 + 9);
  });

  it("reads each reference value from the transcription: a changed cell changes the row", () => {
    const changed = structuredClone(published) as PublishedTables & { table51: { rows: { cells: Record<string, string> }[] } };
    changed.table51.rows[1]!.cells.bw_mb_per_s = "13.50";
    const r = publishedTableRows(changed, PAPER_MODEL, options).find((x) => x.id === "table-5.1/np=2/bw")!;
    expect(r).toMatchObject({ printed: "13.50", paper: 13.5, verdict: "erratum" });
  });

  it("without the campaign, keeps every row that does not compare with seeded instances", () => {
    expect(withoutCampaign.filter((r) => /\/(share|time-ratio)/.test(r.id))).toEqual([]);
    expect(withoutCampaign).toHaveLength(rows.length - 18 - 12 - 2);
  });
});

describe("[Y11] Table 1 / [Y-thesis] Table 4.2, estimated peaks", () => {
  it.each([
    // printed: [Y11] Table 1 and [Y-thesis] Table 4.2, columns "ī estimated", "bw_ī estimated"
    ["D1", "9", "30.04"],
    ["D2", "10", "32.53"],
    ["D3", "7", "26.24"],
  ])("%s: printed ī = %s, bw_ī = %s, equal to the published model's peak", (dataset, m, bw) => {
    expect(row(`${dataset}/estimated-peak-m`)).toMatchObject({ printed: m, ours: reference.peaks[dataset]!.m, verdict: "match", papers: ["[Y11]", "[Y-thesis]"] });
    expect(row(`${dataset}/estimated-peak-bw`)).toMatchObject({ printed: bw, verdict: "match" });
    expectClose(row(`${dataset}/estimated-peak-bw`).ours!, reference.peaks[dataset]!.bw, 1e-5);
    expect(row(`${dataset}/estimated-peak-bw`).source).toBe(`[Y11] Table 1, row ${dataset}, column estimated bw_ī; [Y-thesis] Table 4.2, row ${dataset}, column estimated bw_ī`);
  });
});

describe("[Y-thesis] Table 4.3, checkpoint times with BLCR 0.4.2", () => {
  it("one application of 100 MB took 18 s, where the model's 8.61 MB/s for one process gives 11.6 s", () => {
    // printed: Table 4.3, row "App. séq. unique", column 3 (S = 100, T = 18)
    const r = row("table-4.3/single/1x100MB/time");
    expect(r).toMatchObject({ printed: "18", verdict: "differs", source: "[Y-thesis] Table 4.3, row single sequential application, 1 process, column 3 (T)" });
    expectClose(r.ours!, reference.table43["1x100"]!, 1e-5);
    expect(r.reason).toContain("the cluster moved 5.56 MB/s in all, the published model predicts 8.61 MB/s");
  });

  it("15 sequential applications of 40 MB took 15 s, as the model predicts (15.08 s)", () => {
    // printed: Table 4.3, row "Plusieurs applications séquentielles", 15 processes, column 5 ("15 x 40", T = 15)
    expect(row("table-4.3/several/15x40MB/time")).toMatchObject({ printed: "15", verdict: "match" });
    expectClose(row("table-4.3/several/15x40MB/time").ours!, reference.table43["15x40"]!, 1e-5);
  });

  it("reads the two cells printed '4 x 50' in the 400 MB column as 4 × 100 MB: errata, with the times at the corrected size", () => {
    for (const kind of ["several", "parallel"]) {
      expect(row(`table-4.3/${kind}/4x50MB/process-size`)).toMatchObject({ printed: "50", corrected: 100, verdict: "erratum", selfCheck: true });
    }
    expect(row("table-4.3/several/4x50MB/process-size").reason).toContain("the published model gives 9.5 s for 4 × 50 MB, 18.9 s for 4 × 100 MB");
    // The MPI group: the other 400 MB cells took 147 (2 × 200, 8 × 50), 148 (5 × 80) and 149 s (10 × 40).
    expect(row("table-4.3/parallel/4x50MB/process-size").reason).toContain("the other 400 MB cells of its group took 147–149 s");
    // printed T = 20 s (sequential group), the model at 4 × 100 MB: 18.95 s.
    expectClose(row("table-4.3/several/4x50MB/time").ours!, reference.table43["4x100"]!, 1e-5);
  });

  it("cannot recompute the MPI application's coordinated checkpoint, and says what the table shows of it", () => {
    const parallel = rows.filter((r) => r.id.startsWith("table-4.3/parallel/") && r.id.endsWith("/time"));
    expect(parallel).toHaveLength(19);
    expect(parallel.every((r) => r.verdict === "not recomputable")).toBe(true);
    // printed: 2 MPI processes of 40 MB, 32 s; the same as two sequential applications, 8 s.
    expect(row("table-4.3/parallel/2x40MB/time")).toMatchObject({ printed: "32" });
    expect(row("table-4.3/parallel/2x40MB/time").reason).toContain("the same 2 processes as independent applications took 8 s");
  });
});

describe("[Y-thesis] §5.4.2 and Table 5.1: index_bw_max on the example", () => {
  it("Table 5.1's bandwidths are the model's: rows 2–6 equal, row 7 one unit of its last digit off, row 1 an erratum", () => {
    // printed: Table 5.1, column bw(np, S_np): 6.00, 13.11, 17.24, 20.94, 24.10, 26.67, 28.78
    const printed = ["6.00", "13.11", "17.24", "20.94", "24.10", "26.67", "28.78"];
    printed.forEach((value, k) => {
      const r = row(`table-5.1/np=${k + 1}/bw`);
      expect(r.printed).toBe(value);
      expectClose(r.ours!, reference.example.walk[k]!, 1e-5);
    });
    expect([2, 3, 4, 5, 6].map((np) => row(`table-5.1/np=${np}/bw`).verdict)).toEqual(["match", "match", "match", "match", "match"]);
    // 28.7852 rounds to 28.79, not the printed 28.78: close, and the row says so.
    expect(row("table-5.1/np=7/bw")).toMatchObject({ verdict: "close", source: "[Y-thesis] Table 5.1, row indices 1,2,3,4,5,6,7, column bw(np, S_np)" });
    expect(row("table-5.1/np=7/bw").reason).toContain("ours rounds to 28.79");
    expect(row("table-5.1/np=1/bw")).toMatchObject({ printed: "6.00", corrected: 8.61, verdict: "erratum" });
    expect(row("table-5.1/np=1/bw").reason).toContain("What it changes: nothing in index_bw_max's walk");
    // printed: Table 5.1, column S_np: 253, 571, …, 1564 (Σ of S in §5.4.2)
    expect(row("table-5.1/np=7/aggregate-size")).toMatchObject({ printed: "1564", ours: 1564, verdict: "match", selfCheck: true });
  });

  it("bw(8, 2055) = 28,52 in the text is the model at 2155 MB: an erratum that keeps process 8 out of I", () => {
    // printed: §5.4.2, "bw(8, 1564+491) = bw(8, 2055) = 28,52"
    const r = row("example-5.4.2/bw-8");
    expect(r).toMatchObject({ printed: "28.52", corrected: 28.94, verdict: "erratum" });
    expectClose(r.ours!, reference.example.walk[7]!, 1e-5);
    expect(reference.example.bw8at2155.toFixed(2)).toBe("28.52");
    expect(r.reason).toContain("the printed value is the model's with s_8 = 591 for the printed 491 (aggregate 2155 MB)");
    // printed: I = {1, …, 7}; with the model's 28.94 ≥ 28.785 process 8 joins, and ks_bw's choice does not change.
    expect(row("example-5.4.2/candidates")).toMatchObject({ printed: "7", ours: 8, corrected: 8, verdict: "erratum" });
    expect(row("example-5.4.2/candidates").reason).toContain("k0 = 1: ks_bw starts {1, 2, 3} over our I and {1, 2, 3} over the printed one");
  });

  it("P_MAX is Σ p over δ, but no first decision can reach it under the model: the printed δ miss T by eq. 5.3", () => {
    // printed: §5.4.2, P_MAX = 12900 (k0 = 1, δ = 1–5) and 14780 (k0 = 2, δ = 1, 3–7)
    expect(row("example-5.4.2/k0=1/p-max-sum")).toMatchObject({ printed: "12900", ours: 12900, verdict: "match", selfCheck: true });
    expect(row("example-5.4.2/k0=2/p-max-sum")).toMatchObject({ printed: "14780", ours: 14780, verdict: "match" });
    expect(row("example-5.4.2/k0=1/p-max")).toMatchObject({ ours: 8050, verdict: "differs" });
    // Brute force over the 255 sets (reference script): the best one that meets eq. 5.3 saves 12530 s, {1, 3, 4, 5, 6}.
    expect(row("example-5.4.2/k0=2/p-max")).toMatchObject({ ours: reference.example.bestFeasibleP, verdict: "differs" });
    expect(row("example-5.4.2/k0=2/p-max").reason).toContain(`saves more than ${reference.example.bestFeasibleP} s ({${reference.example.bestFeasibleSet.join(", ")}}`);
    expect(row("example-5.4.2/k0=1/p-max").reason).toContain(`needs ${reference.example.static["1"]!.toFixed(2)} s by eq. 5.3`);
    expect(row("example-5.4.2/k0=2/p-max").reason).toContain(`needs ${reference.example.static["2"]!.toFixed(2)} s by eq. 5.3`);
  });

  it("Tables 5.2 and 5.3: the times against the model's execution of the printed set", () => {
    // printed: Table 5.2, "Temps du ckpt": 49, 58, 29, 41, 54 s for processes 1–5
    ["49", "58", "29", "41", "54"].forEach((t, k) => {
      const r = row(`table-5.2/process-${k + 1}/time`);
      expect(r.printed).toBe(t);
      expectClose(r.ours!, reference.example.fluid["1"]![k]!, 1e-5);
    });
    expect(row("table-5.2/process-2/time").verdict).toBe("match"); // 58.02
    expect(row("table-5.2/process-4/time").verdict).toBe("differs"); // 43.27 against 41, more than 5 %
    // printed: Table 5.3, process 7 checkpointed (1) in 28 s; ks_bw's first decision leaves it for later.
    expect(row("table-5.3/process-7/checkpointed")).toMatchObject({ printed: "1", ours: 0, verdict: "differs" });
    expect(row("table-5.3/process-7/time")).toMatchObject({ printed: "28", verdict: "match" });
    expect(row("table-5.3/process-8/size")).toMatchObject({ printed: "491", ours: 491, verdict: "match", selfCheck: true });
  });
});

describe("[Y-thesis] Tables 7.1 and 7.2: identical sizes (n = 50, p = 26…75, T = 300 s)", () => {
  it("ScheduleCkpt with the model checkpoints 50 / 50 / 50 / 45 / 17 (pipeline/schedule/README.md): 400 MB falls short of the printed 28", () => {
    // printed: Table 7.1, 200 MB: 45 checkpointed, TCCAS 2385, TCCANS 140
    expect(row("table-7.1/200MB/checkpointed")).toMatchObject({ printed: "45", ours: 45, verdict: "match", source: "[Y-thesis] Table 7.1, row 200 MB, column nb ckpt; [Y11] Table 2" });
    expect(row("table-7.1/200MB/ctnys")).toMatchObject({ printed: "2385", ours: 2385, verdict: "match" });
    // printed: Table 7.1, 400 MB: 28, 1722, 803
    expect(row("table-7.1/400MB/checkpointed")).toMatchObject({ printed: "28", ours: 17, verdict: "differs" });
    expect(row("table-7.1/400MB/checkpointed").reason).toContain("28 images of 400 MB in 300 s need 37.33 MB/s on average, above the published model's best");
    expect(row("table-7.1/400MB/rctnys")).toMatchObject({ printed: "803", ours: 803, verdict: "match", selfCheck: true });
  });

  it("sequential greedy at Table 4.3's single-application rate gives the printed counts at 10, 100, 200 and 400 MB", () => {
    for (const size of [10, 50, 100, 200, 400]) {
      expect(row(`schedule/identical/${size}MB/checkpointed`).ours).toBe(reference.table72[size]!.checkpointed);
      expectClose(measuredSingleProcessRate(published.table43, size).rateMbPerS, reference.table72[size]!.rate, 1e-12);
    }
    // printed: Table 7.2, 100 MB: 16 checkpointed, 1080 s; Table 4.3 measured 100 MB in 18 s, and 16 × 18 s fit in 300 s.
    expect(row("schedule/identical/100MB/checkpointed")).toMatchObject({ printed: "16", ours: 16, verdict: "match" });
    expect(row("schedule/identical/100MB/ctnys")).toMatchObject({ printed: "1080", ours: 1080, verdict: "match" });
    // 200 MB was not measured alone: the rate is interpolated, so at best close.
    expect(row("schedule/identical/200MB/checkpointed")).toMatchObject({ printed: "8", ours: 8, verdict: "close" });
    // printed: 50 MB, 50 checkpointed: that needs ≥ 8.33 MB/s; Table 4.3 gives about 5.2 MB/s.
    expect(row("schedule/identical/50MB/checkpointed")).toMatchObject({ printed: "50", ours: 30, verdict: "differs" });
    expect(row("schedule/identical/50MB/checkpointed").reason).toContain("no one rate gives all 5 printed counts");
  });

  it("finds 297 s for 4 of p = 26…75 impossible (the 4 largest save 294), and RCTNYS carries it", () => {
    // printed: Table 7.2, 400 MB: 4, 297, 2228
    expect(row("schedule/identical/400MB/ctnys")).toMatchObject({ printed: "297", corrected: 294, verdict: "erratum" });
    expect(row("schedule/identical/400MB/rctnys")).toMatchObject({ printed: "2228", ours: 2231, corrected: 2231, verdict: "erratum", selfCheck: true });
  });

  it("derives the rates each printed count allows: k·s/T ≤ rate < (k + 1)·s/T", () => {
    const rates = impliedSingleProcessRates(published.table72);
    expect(rates.find((r) => r.sizeMb === 100)).toEqual({ sizeMb: 100, lowMbPerS: 1600 / 300, highMbPerS: 1700 / 300 });
    expect(rates.find((r) => r.sizeMb === 50)).toEqual({ sizeMb: 50, lowMbPerS: 2500 / 300, highMbPerS: Infinity });
  });
});

describe("[Y-thesis] Tables 7.3–7.8: the second instance of each family", () => {
  it("recomputes every RCTNYS as Σ p − CTNYS and finds Table 7.8 at k0 = 2 off by 4", () => {
    // printed: Σ p = CTNYS + RCTNYS is 10541 (Tables 7.3–7.4), 31412 (7.5–7.6), 41957 (7.7–7.8) …
    expect(row("table-7.3/k0=0/rctnys")).toMatchObject({ printed: "6266", ours: 10541 - 4275, verdict: "match", selfCheck: true });
    expect(row("table-7.6/k0=2/rctnys")).toMatchObject({ printed: "2538", ours: 31412 - 28874, verdict: "match" });
    // … except Table 7.8, k0 = 2: 27089 + 14864 = 41953.
    const erratum = row("table-7.8/k0=2/rctnys");
    expect(erratum).toMatchObject({ printed: "14864", corrected: 41957 - 27089, verdict: "erratum" });
    expect(erratum.reason).toContain("Table 7.8 prints CTNYS + RCTNYS = 41953, not the instance's Σ p = 41957 (the sum 5 of the 6 rows of Tables 7.7 and 7.8 print");
    const rctnys = rows.filter((r) => /^table-7\.[3-8]\/k0=\d\/rctnys$/.test(r.id));
    expect(rctnys.map((r) => r.verdict).filter((v) => v !== "match")).toEqual(["erratum"]);
    expect(row("table-7.8/k0=2/share")).toMatchObject({ printed: (27089 / 41953).toFixed(4), corrected: Math.round((27089 / 41957) * 1e4) / 1e4, verdict: "erratum" });
  });

  it("compares each instance's Σ p with the stated law: A's is plausible, B's and C's are not", () => {
    // n = 25, p in [60, 600]: Σ p = 8250 ± 780 (sd); printed 10541 is 2.9 sd off.
    expect(row("thesis/A/total-p")).toMatchObject({ paper: 10541, ours: 8250, verdict: "close", source: "[Y-thesis] Tables 7.3 and 7.4, row every k0, column CTNYS + RCTNYS" });
    expect(row("thesis/B/total-p")).toMatchObject({ paper: 31412, ours: 52500, verdict: "differs" });
    expect(row("thesis/C/total-p")).toMatchObject({ paper: 41957, ours: 73500, verdict: "differs" });
  });

  it("compares the growth of the scheduling time from one k0 to the next, not the microseconds", () => {
    // printed: Table 7.3, sche_time 30, 1825, 20984 µs at k0 = 0, 1, 2: ×60.8, then ×11.5.
    expect(row("table-7.3/time-ratio/k0=1:0")).toMatchObject({ printed: "60.8", unit: "ratio", verdict: "differs" });
    expect(row("table-7.3/time-ratio/k0=2:1")).toMatchObject({ printed: "11.5" });
    expect(row("table-7.3/k0=2/scheduler-time")).toMatchObject({ printed: "20984", ours: null, verdict: "not recomputable" });
    // printed: Table 7.3, k0 = 2, TCCAS 6987: a sum over the unpublished instance; its share is what is compared.
    expect(row("table-7.3/k0=2/ctnys")).toMatchObject({ printed: "6987", ours: null, verdict: "not recomputable" });
    // Ours is a ratio of counts (bandwidth evaluations), ≥ 1: a larger k0 never makes a decision do less.
    expect(rows.filter((r) => r.id.includes("time-ratio")).every((r) => r.ours! >= 1)).toBe(true);
  });
});

describe("[Y-thesis] Tables 7.9 and 7.10: waves", () => {
  it("recomputes RCTNYS from the other table's Σ p (27084 + 13132 = 29217 + 10999 = 40216)", () => {
    // printed: Table 7.9 (criterion p): 27084 / 13132 / 92104 µs; Table 7.10 (p/s): 29217 / 10999 / 97589 µs
    expect(row("schedule/waves/p/rctnys")).toMatchObject({ printed: "13132", ours: 13132, verdict: "match", source: "[Y-thesis] Table 7.9, row k0 = 2, column TCCANS" });
    expect(row("schedule/waves/density/rctnys")).toMatchObject({ printed: "10999", ours: 10999, verdict: "match" });
    expect(row("schedule/waves/density/scheduler-time")).toMatchObject({ printed: "97589", verdict: "not recomputable" });
    expect(row("schedule/waves/total-p")).toMatchObject({ paper: 40216, verdict: "differs" });
  });
});
