/**
 * The run table's columns (pipeline/ingest/run-table.ts) on runs written by hand: what goes
 * in comes out through every accessor, past the first growth of its columns (1024 runs) and
 * of its run_id arena (4096 bytes), across `appendTable` (a worker's runs after the main
 * thread's) and `toData`/`fromData` (what crosses between threads).
 */
import { describe, expect, it } from "vitest";
import { RunTable } from "../../pipeline/ingest/run-table";

const bytes = (text: string) => Buffer.from(text, "utf8");

/** Run i of the large table: run_id `run-` and i in 4 digits (8 bytes), m = 1 + i mod 7. */
const bigRunId = (i: number) => `run-${String(i).padStart(4, "0")}`;

function bigTable(runs: number): RunTable {
  const table = new RunTable();
  table.sources.push("big.csv");
  for (let i = 0; i < runs; i++) {
    const m = 1 + (i % 7);
    table.append(bytes(bigRunId(i)), m, m * 10, 2.5 * i, i % 3 === 0 ? null : 10, 0, -1);
  }
  return table;
}

describe("a run table", () => {
  it("keeps every run's values past the growth of its columns and its arena", () => {
    // 1500 runs of 8-byte run_ids: 12 000 bytes, past 1024 rows and 4096 bytes.
    const table = bigTable(1500);
    expect(table.length).toBe(1500);
    expect(table.idBytes).toBe(1500 * 8);
    for (const i of [0, 1, 1023, 1024, 1025, 1499]) {
      const m = 1 + (i % 7);
      expect([table.runId(i), table.runIdLength(i), table.m[i], table.sumSizeMb[i], table.bwMbPerS[i], table.uniformSize(i)]).toEqual([
        bigRunId(i),
        8,
        m,
        m * 10,
        2.5 * i,
        i % 3 === 0 ? null : 10,
      ]);
    }
    // Run 1024: m = 1 + 1024 mod 7 = 1 + 2 = 3, Σ size 30 MB = 0.03 GB, 2.5 · 1024 = 2560 MB/s, 1024 mod 3 = 1: size 10.
    expect(table.observation(1024)).toEqual({ runId: "run-1024", m: 3, vGb: 0.03, aggregatedBwMbPerS: 2560, uniformSizeMb: 10, source: "big.csv" });
  });

  it("gives a run its attribute record and source, and an object that is a copy of them", () => {
    const table = new RunTable();
    table.sources.push("a.csv", "b.csv");
    table.attributeSets.push({ cluster: "azur" }, { cluster: "orsay", slot: "2" });
    table.append(bytes("x"), 2, 200, 15, 100, 1, 1);
    table.append(bytes("y"), 1, 50, 5, 50, 0, -1);
    expect([table.sourceOfIndex(0), table.sourceOf(0), table.attributeSetIndex(0), table.attributes(0)]).toEqual([1, "b.csv", 1, { cluster: "orsay", slot: "2" }]);
    expect([table.sourceOfIndex(1), table.sourceOf(1), table.attributeSetIndex(1), table.attributes(1)]).toEqual([0, "a.csv", -1, undefined]);
    const x = table.observation(0);
    // By hand: V = 200 MB / 1000 = 0.2 GB.
    expect(x).toEqual({ runId: "x", m: 2, vGb: 0.2, aggregatedBwMbPerS: 15, uniformSizeMb: 100, source: "b.csv", attributes: { cluster: "orsay", slot: "2" } });
    expect(x.attributes).not.toBe(table.attributeSets[1]);
    expect("attributes" in table.observation(1)).toBe(false);
  });

  it("takes a run_id from the middle of a byte array with appendFrom", () => {
    const table = new RunTable();
    table.sources.push("f");
    table.appendFrom(bytes("..run-7,.."), 2, 7, 1, 1, 1, 1, 0, -1);
    expect(table.runId(0)).toBe("run-7");
    expect(table.idBytes).toBe(5);
  });

  it("appends another table's runs after its own, their sources and attribute records mapped", () => {
    const main = new RunTable();
    main.sources.push("one.csv", "two.csv");
    main.attributeSets.push({ cluster: "azur" });
    main.append(bytes("a"), 1, 10, 1, 10, 0, 0);
    main.append(bytes("b"), 2, 20, 2, null, 1, -1);
    // The worker's table: its source 0 is a file main has not met, its source 1 is main's "two.csv".
    const worker = new RunTable();
    worker.sources.push("three.csv", "two.csv");
    worker.attributeSets.push({ cluster: "orsay" }, { cluster: "azur" });
    worker.append(bytes("cc"), 3, 30, 3, 10, 1, 1);
    worker.append(bytes("ddd"), 4, 40, 4, 10, 0, -1);
    worker.append(bytes("e"), 5, 50, 5, null, 1, 0);
    main.appendTable(worker);
    expect(main.length).toBe(5);
    expect(main.idBytes).toBe(1 + 1 + 2 + 3 + 1);
    // "three.csv" is new (index 2), "two.csv" is main's index 1; the worker's records follow main's one (offset 1).
    expect(main.sources).toEqual(["one.csv", "two.csv", "three.csv"]);
    expect(main.attributeSets).toEqual([{ cluster: "azur" }, { cluster: "orsay" }, { cluster: "azur" }]);
    expect(Array.from({ length: 5 }, (_, i) => [main.runId(i), main.m[i], main.sumSizeMb[i], main.bwMbPerS[i], main.uniformSize(i), main.sourceOf(i), main.attributeSetIndex(i)])).toEqual([
      ["a", 1, 10, 1, 10, "one.csv", 0],
      ["b", 2, 20, 2, null, "two.csv", -1],
      ["cc", 3, 30, 3, 10, "two.csv", 2],
      ["ddd", 4, 40, 4, 10, "three.csv", -1],
      ["e", 5, 50, 5, null, "two.csv", 1],
    ]);
    // A run appended after: its run_id after the others' bytes.
    main.append(bytes("f"), 1, 1, 1, 1, 0, -1);
    expect([main.runId(4), main.runId(5), main.idBytes]).toEqual(["e", "f", 9]);
  });

  it("appends a table larger than its own capacity (columns and arena grown at once)", () => {
    const main = new RunTable();
    main.sources.push("big.csv");
    main.append(bytes("first"), 1, 1, 1, 1, 0, -1);
    main.appendTable(bigTable(1500));
    expect(main.length).toBe(1501);
    expect(main.idBytes).toBe(5 + 1500 * 8);
    expect([main.runId(0), main.runId(1), main.runId(1025), main.runId(1500)]).toEqual(["first", "run-0000", "run-1024", "run-1499"]);
    expect([main.m[1500], main.bwMbPerS[1500], main.uniformSize(1500), main.sourceOf(1500)]).toEqual([1 + (1499 % 7), 2.5 * 1499, 10, "big.csv"]);
  });

  it("comes back from its data as it was, and goes on appending after its last run_id", () => {
    const table = new RunTable();
    table.sources.push("s");
    table.attributeSets.push({ k: "v" });
    table.append(bytes("ab"), 2, 4, 6, 2, 0, 0);
    table.append(bytes("cde"), 1, 3, 9, null, 0, -1);
    const back = RunTable.fromData(table.toData());
    expect(back.length).toBe(2);
    expect(back.idBytes).toBe(5);
    expect([back.observation(0), back.observation(1)]).toEqual([
      { runId: "ab", m: 2, vGb: 0.004, aggregatedBwMbPerS: 6, uniformSizeMb: 2, source: "s", attributes: { k: "v" } },
      { runId: "cde", m: 1, vGb: 0.003, aggregatedBwMbPerS: 9, uniformSizeMb: null, source: "s" },
    ]);
    back.append(bytes("f"), 1, 1, 1, 1, 0, -1);
    expect([back.runId(1), back.runId(2), back.idBytes]).toEqual(["cde", "f", 6]);
    const empty = RunTable.fromData(new RunTable().toData());
    expect([empty.length, empty.idBytes]).toEqual([0, 0]);
  });

  it("reserves room for runs and run_id bytes without changing what it holds", () => {
    const table = new RunTable();
    table.sources.push("s");
    table.append(bytes("keep"), 3, 3, 3, 1, 0, -1);
    table.reserve(5000, 20_000);
    table.reserve(10); // less than it has: nothing to do
    expect([table.length, table.runId(0), table.m[0], table.idBytes]).toEqual([1, "keep", 3, 4]);
    expect(table.m.length).toBeGreaterThanOrEqual(5000);
    // Doubled at least: a reservation of one more than the capacity gives twice the capacity.
    const capacity = table.m.length;
    table.reserve(capacity + 1);
    expect(table.m.length).toBe(2 * capacity);
    expect(table.sumSizeMb.length).toBe(2 * capacity);
    expect(table.bwMbPerS.length).toBe(2 * capacity);
    expect(table.uniformSizeMb.length).toBe(2 * capacity);
    expect([table.runId(0), table.sourceOf(0), table.attributeSetIndex(0), table.uniformSize(0)]).toEqual(["keep", "s", -1, 1]);
  });
});

describe("copyPlainRunId", () => {
  const tableOf = (...ids: string[]) => {
    const table = new RunTable();
    table.sources.push("s");
    for (const id of ids) table.append(bytes(id), 1, 1, 1, 1, 0, -1);
    return table;
  };

  it("copies printable ASCII (0x20 to 0x7e) other than the quote and the backslash, and returns the end", () => {
    const table = tableOf("a b~", "run 1");
    const target = new Uint8Array(10).fill(0x2e);
    // "a b~" at 3: bytes 3..6, the end 7.
    expect(table.copyPlainRunId(0, target, 3)).toBe(7);
    expect(Buffer.from(target).toString("latin1")).toBe("...a b~...");
    // Exactly the room left: 10 − 5 = 5 bytes for "run 1".
    expect(table.copyPlainRunId(1, target, 5)).toBe(10);
    expect(Buffer.from(target).toString("latin1")).toBe("...a run 1");
  });

  it("refuses (-1) what JSON would escape, and a target without room", () => {
    const table = tableOf('a"b', "a\\b", "tab\there", "\u001f", "\u007f", "é", "long");
    const target = new Uint8Array(8);
    for (let i = 0; i < 6; i++) expect(table.copyPlainRunId(i, target, 0)).toBe(-1);
    // "long" (4 bytes) at 5 of 8: one byte short.
    expect(table.copyPlainRunId(6, target, 5)).toBe(-1);
    expect(table.copyPlainRunId(6, target, 4)).toBe(8);
  });
});
