/** `ckpt ingest` and `ckpt synth` through the CLI dispatcher: output, files, exit codes. */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../cli-io";
import { OBSERVATIONS_SCHEMA, parseObservationsArtifact } from "../../pipeline/ingest/observations-artifact";

const scratch = mkdtempSync(join(tmpdir(), "ckpt-cli-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const run = (...argv: string[]) => runCli(argv);

describe("ckpt ingest", () => {
  it("prints --help with the usage line and an example", async () => {
    const { code, stdout } = await run("ingest", "--help");
    expect(code).toBe(0);
    expect(stdout).toMatch(/^ckpt ingest — .*\n\nUsage:\n  ckpt ingest <file\|directory>…/);
    expect(stdout).toMatch(/Example:\n  ckpt ingest data\/traces\/synthetic-azur\.csv/);
  });

  it("ingests, writes the observations and the rejects, and prints counts and series", async () => {
    const out = join(scratch, "obs.json");
    const { code, stdout } = await run("ingest", "data/examples/canonical-with-problems.csv", "--out", out);
    expect(code).toBe(0);
    expect(stdout).toMatch(/read 17 rows from 1 file: 4 accepted, 13 rejected/);
    expect(stdout).toMatch(/rejected rows by reason/);
    expect(stdout).toMatch(/size_mb\s+m\s+runs\s+peak ī/);
    const artifact = parseObservationsArtifact(JSON.parse(readFileSync(out, "utf8")), out);
    expect(artifact.schema).toBe(OBSERVATIONS_SCHEMA);
    expect(artifact.counts).toEqual({ read: 17, accepted: 4, rejected: 13 });
    expect(artifact.inputs[0]).toMatchObject({ path: "data/examples/canonical-with-problems.csv", sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    const rejects = readFileSync(join(scratch, "obs.rejects.csv"), "utf8").trim().split("\n");
    expect(rejects[0]).toBe("file,line,code,reason,raw");
    expect(rejects).toHaveLength(14);
  });

  it("counts the rejected rows of each reason: a hand-written trace whose rejects are known row by row", async () => {
    // Each line's fate, written by hand from the rules in pipeline/ingest/row-ledger.ts and
    // reject-reasons.ts (line 1 is the header):
    const lines: [string, string | null][] = [
      ["run_id,node,m,size_mb,ckpt_mb,start_s,end_s", null],
      ["a,n1,2,76,76,0,6.5", null], // 2: run a, accepted with line 3
      ["a,n2,2,76,76,0,6.6", null], // 3
      ["b,n1,1,76,76,0", "field-count"], // 4: 6 fields of 7
      ["c,n1,1,76,76,0,1,x", "field-count"], // 5: 8 fields of 7
      ["d,n1,1,76,76,0,1,x,y", "field-count"], // 6: 9 fields of 7
      ["e,n1,1,76,76,0,5", null], // 7: run e, accepted (its duplicate below is rejected, the first row kept)
      ["e,n1,1,76,76,0,6", "duplicate-process"], // 8
      ["e,n1,1,76,76,0,7", "duplicate-process"], // 9
      ["f,n1,1,76,76,3,3", "zero-duration"], // 10
      ["g,n1,1,76,76,0,2", null], // 11: run g, accepted
      ["h,n1,1,76,76,0,2", null], // 12: run h, accepted
      ["h,n1,1,76,76,0,3", "duplicate-process"], // 13
      ["i,n1,3,76,76,0,2", "run-size-mismatch"], // 14: m = 3, two valid rows
      ["i,n2,3,76,76,0,2", "run-size-mismatch"], // 15
      [",n1,1,76,76,0,2", "empty-field"], // 16
    ];
    const trace = join(scratch, "known-rejects.csv");
    writeFileSync(trace, `${lines.map(([text]) => text).join("\n")}\n`);
    const expected: Record<string, number> = {};
    const firstLine: Record<string, number> = {};
    lines.forEach(([, code], i) => {
      if (code === null) return;
      expected[code] = (expected[code] ?? 0) + 1;
      firstLine[code] ??= i + 1;
    });
    // By hand: 3 field-count, 3 duplicate-process, 2 run-size-mismatch, 1 zero-duration, 1 empty-field.
    expect(expected).toEqual({ "field-count": 3, "duplicate-process": 3, "zero-duration": 1, "run-size-mismatch": 2, "empty-field": 1 });

    const out = join(scratch, "known-rejects.json");
    const { code, stdout } = await run("ingest", trace, "--out", out);
    expect(code).toBe(0);
    expect(stdout).toMatch(/read 15 rows from 1 file: 5 accepted, 10 rejected/);
    // The printed table, row by row: reason, count, where the first one is.
    const table = stdout.split("rejected rows by reason\n")[1]!.split("\n\n")[0]!.split("\n").slice(2);
    const printed = Object.fromEntries(table.map((row) => row.trim().split(/\s+/)).map(([reason, rows, at]) => [reason, { rows: Number(rows), at }]));
    expect(printed).toEqual(Object.fromEntries(Object.entries(expected).map(([c, n]) => [c, { rows: n, at: `${trace}:${firstLine[c]}` }])));
    // The artifact's tally and the rejects file's code column agree with the hand count.
    expect(parseObservationsArtifact(JSON.parse(readFileSync(out, "utf8")), out).rejectedByCode).toEqual(expected);
    const rejectRows = readFileSync(join(scratch, "known-rejects.rejects.csv"), "utf8").trim().split("\n").slice(1);
    expect(rejectRows.map((row) => row.split(",").slice(1, 3).join(":"))).toEqual(lines.flatMap(([, c], i) => (c === null ? [] : [`${i + 1}:${c}`])));
  });

  it("prints JSON with --json", async () => {
    const out = join(scratch, "host.json");
    const { code, stdout } = await run("ingest", "data/examples/host-logs", "--out", out, "--rejects", join(scratch, "host-rejects.csv"), "--json");
    expect(code).toBe(0);
    const printed = JSON.parse(stdout) as { counts: unknown; series: { sizeMb: number }[]; validationRuns: number };
    expect(printed.counts).toEqual({ read: 5, accepted: 5, rejected: 0 });
    expect(printed.series.map((s) => s.sizeMb)).toEqual([76]);
    expect(printed.validationRuns).toBe(1);
    expect(readFileSync(join(scratch, "host-rejects.csv"), "utf8")).toBe("file,line,code,reason,raw\n");
  });

  it("exits 1 with file:line: reason under --strict, and writes nothing", async () => {
    const out = join(scratch, "strict.json");
    const { code, stderr } = await run("ingest", "data/examples/canonical-with-problems.csv", "--strict", "--out", out);
    expect(code).toBe(1);
    expect(stderr).toMatch(/^ckpt ingest: data\/examples\/canonical-with-problems\.csv:4: missing fields/);
    expect(existsSync(out)).toBe(false);
  });

  it("exits 1 when no row is accepted, after writing the rejects", async () => {
    const trace = join(scratch, "bad.csv");
    writeFileSync(trace, "run_id,node,m,size_mb,ckpt_mb,start_s,end_s\nr,n,1,1,1,5,1\n");
    const { code, stderr } = await run("ingest", trace, "--out", join(scratch, "bad.json"));
    expect(code).toBe(1);
    expect(stderr).toMatch(/nothing to aggregate: its only row was rejected \(every one, with its reason, is in .*bad\.rejects\.csv\)/);
    expect(existsSync(join(scratch, "bad.rejects.csv"))).toBe(true);
    expect(existsSync(join(scratch, "bad.json"))).toBe(false);
  });

  it("when every row is rejected, says the most frequent reasons with their counts and one example row each", async () => {
    // 49 rows: 30 with a text in ckpt_mb, 15 with end_s before start_s, 4 with end_s = start_s.
    const rows = [
      ...Array.from({ length: 30 }, (_, i) => `a${i},n,1,76,abc,0,6.5`),
      ...Array.from({ length: 15 }, (_, i) => `b${i},n,1,76,76,9,6.5`),
      ...Array.from({ length: 4 }, (_, i) => `c${i},n,1,76,76,6.5,6.5`),
    ];
    const trace = join(scratch, "o7.csv");
    writeFileSync(trace, ["run_id,node,m,size_mb,ckpt_mb,start_s,end_s", ...rows, ""].join("\n"));
    const { code, stderr } = await run("ingest", trace, "--out", join(scratch, "o7.json"));
    expect(code).toBe(1);
    expect(stderr).toBe(
      [
        `ckpt ingest: nothing to aggregate: all 49 rows were rejected (every one, with its reason, is in ${join(scratch, "o7.rejects.csv")}). The most frequent reasons, with the first row of each:`,
        `  30 × non-numeric: ${trace}:2: ckpt_mb must be a finite decimal number, found "abc"`,
        "      a0,n,1,76,abc,0,6.5",
        `  15 × end-before-start: ${trace}:32: end_s (6.5) is before start_s (9); are the two columns swapped?`,
        "      b0,n,1,76,76,9,6.5",
        `  4 × zero-duration: ${trace}:47: end_s equals start_s (6.5): a checkpoint takes a positive time, the bandwidth would be infinite`,
        "      c0,n,1,76,76,6.5,6.5",
        "",
      ].join("\n"),
    );
  });

  it("exits 2 on usage errors", async () => {
    expect((await run("ingest")).code).toBe(2);
    expect((await run("ingest", "x.csv", "--format", "xml")).stderr).toMatch(/--format must be one of auto, canonical, host-logs, ior, fio, release-log; got "xml"/);
    expect((await run("ingest", "x.csv", "--bogus")).code).toBe(2);
  });

  it("exits 1 on a missing file", async () => {
    const { code, stderr } = await run("ingest", join(scratch, "nope.csv"), "--out", join(scratch, "n.json"));
    expect(code).toBe(1);
    expect(stderr).toMatch(/no such file or directory/);
  });
});

describe("ckpt synth", () => {
  it("writes the campaign atomically and the same bytes for the same seed", async () => {
    const a = join(scratch, "synthetic-a.csv");
    const b = join(scratch, "synthetic-b.csv");
    const first = await run("synth", "--seed", "3", "--repetitions", "2", "--max-m", "4", "--uniform-only", "--out", a, "--json");
    expect(first.code).toBe(0);
    const summary = JSON.parse(first.stdout) as { rows: number; runs: number; sha256: string };
    // 7 sizes × (1 + 2 + 3 + 4) processes × 2 repetitions
    expect(summary).toMatchObject({ rows: 140, runs: 56, validation: false });
    expect((await run("synth", "--seed", "3", "--repetitions", "2", "--max-m", "4", "--uniform-only", "--out", b)).code).toBe(0);
    expect(readFileSync(b)).toEqual(readFileSync(a));
    expect(readFileSync(a, "utf8").split("\n")[0]).toBe("run_id,node,m,size_mb,ckpt_mb,start_s,end_s,cluster,dataset,repetition");
  });

  it("writes the link-limited-then-flat cluster: 16 nodes, linear in m up to the links' corner, flat after it", async () => {
    const out = join(scratch, "hpc16.csv");
    const written = await run("synth", "--shape", "link-flat", "--repetitions", "2", "--out", out, "--json");
    expect(written.code, written.stderr).toBe(0);
    // 4 sizes × (1 + … + 16) processes × 2 repetitions
    expect(JSON.parse(written.stdout)).toMatchObject({ shape: "link-flat", rows: 4 * 136 * 2, runs: 4 * 16 * 2 });
    const rows = readFileSync(out, "utf8").trim().split("\n").slice(1).map((line) => line.split(","));
    expect(new Set(rows.map((r) => r[7]))).toEqual(new Set(["hpc16-synthetic"]));
    expect(Math.max(...rows.map((r) => Number(r[2])))).toBe(16);
    const again = join(scratch, "hpc16-again.csv");
    expect((await run("synth", "--shape", "link-flat", "--repetitions", "2", "--out", again)).code).toBe(0);
    expect(readFileSync(again)).toEqual(readFileSync(out));
  });

  it("has --help and refuses bad numbers with exit 2", async () => {
    expect((await run("synth", "--help")).stdout).toMatch(/^ckpt synth — .*\n\nUsage:\n  ckpt synth/);
    expect((await run("synth", "--repetitions", "0")).stderr).toMatch(/--repetitions expects a whole number ≥ 1, got 0/);
    expect((await run("synth", "--seed", "1.5")).code).toBe(2);
  });
});
