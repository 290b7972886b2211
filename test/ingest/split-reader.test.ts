/**
 * A file read on two threads gives exactly what one thread gives: when the split falls
 * between runs (the parts are joined), when a run_id occurs in both parts (the main thread
 * reads the second part itself), with rejects, comments, CR line endings and a BOM.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openFileSource } from "../../pipeline/ingest/byte-source";
import { readCanonicalSource } from "../../pipeline/ingest/canonical-reader";
import { ingestFiles, type IngestOptions } from "../../pipeline/ingest/ingest-files";
import { createRowLedger } from "../../pipeline/ingest/row-ledger";

const scratch = mkdtempSync(join(tmpdir(), "ckpt-split-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const HEADER = "run_id,node,m,size_mb,ckpt_mb,start_s,end_s,cluster";

/** ~2.5 MB of runs (the split needs a file of at least 2 MiB), with a few bad rows. */
function rows(runs: number, prefix = "r"): string[] {
  const lines: string[] = [];
  for (let r = 0; r < runs; r++) {
    const m = 1 + (r % 5);
    for (let i = 1; i <= m; i++) {
      const end = r % 997 === 0 && i === 1 ? "x" : String(r + 10 + i / 8); // a bad row: its run is rejected
      lines.push(`${prefix}${r},n${i},${m},76,76.174,${r}.5,${end},azur`);
    }
    if (r % 1499 === 0) lines.push("# a comment");
  }
  return lines;
}

/** How the two-thread reader put the file together. */
async function howRead(path: string): Promise<string | undefined> {
  const source = await openFileSource(path);
  try {
    return (await readCanonicalSource(source, createRowLedger(), { parallelMinBytes: 0 })).twoThreads;
  } finally {
    await source.close();
  }
}

async function bothWays(path: string, options: IngestOptions = {}) {
  const sequential = await ingestFiles([path], { ...options, parallelMinBytes: Infinity });
  const split = await ingestFiles([path], { ...options, parallelMinBytes: 0 });
  expect(split).toEqual(sequential);
  expect(split.counts.read).toBe(split.counts.accepted + split.counts.rejected);
  return sequential;
}

describe("reading a file on two threads", () => {
  it("joins the two parts when no run crosses the split", async () => {
    const path = join(scratch, "sorted.csv");
    writeFileSync(path, `${HEADER}\n${rows(40_000).join("\n")}\n`);
    expect(await howRead(path)).toBe("joined");
    const result = await bothWays(path);
    expect(result.counts.rejected).toBeGreaterThan(100);
    expect(result.warnings?.[0]).toMatch(/comment lines \(starting with #\) skipped, the first at line/);
  });

  it("reads the second part on the main thread when a run_id occurs in both parts", async () => {
    const lines = rows(40_000);
    // A row of run r3 at the very end: r3 is scattered across the split.
    const path = join(scratch, "scattered.csv");
    writeFileSync(path, `${HEADER}\n${lines.join("\n")}\nr3,n9,4,76,76.174,0,1,azur\n`);
    expect(await howRead(path)).toBe("second part re-read");
    const result = await bothWays(path);
    expect(result.rejects.filter((r) => r.reason.includes('run "r3"'))).toHaveLength(5);
  });

  it("gives the same answer with CR line endings, CR LF endings and a byte-order mark", async () => {
    const lines = rows(40_000);
    for (const [name, text] of [
      ["cr.csv", `${HEADER}\r${lines.join("\r")}\r`],
      ["crlf.csv", `\uFEFF${HEADER}\r\n${lines.join("\r\n")}\r\n`],
    ] as const) {
      const path = join(scratch, name);
      writeFileSync(path, text);
      expect(await howRead(path)).toBe("joined");
      await bothWays(path);
    }
  });

  it("joins the parts of several files, their sources and attribute records mapped (the second file's worker has its own)", async () => {
    const paths = ["a.csv", "b.csv"].map((name, f) => {
      // Attribute values that differ per run, and per file, so that each part has its own records.
      const lines = rows(40_000, `f${f}-`).map((line, k) => line.replace(/,azur$/, `,c${(k >> 4) % 7}-${f}`));
      const path = join(scratch, name);
      writeFileSync(path, `${HEADER}\n${lines.join("\n")}\n`);
      return path;
    });
    const sequential = await ingestFiles(paths, { parallelMinBytes: Infinity, groupBy: ["cluster"] });
    const split = await ingestFiles(paths, { parallelMinBytes: 0, groupBy: ["cluster"] });
    expect(split).toEqual(sequential);
    expect(new Set(split.observations.runs.map((r) => r.source)).size).toBe(2);
  });
});
