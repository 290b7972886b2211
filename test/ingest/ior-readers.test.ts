/**
 * IOR's text output and JSON summary, as IOR 3.2.1, 3.3.0 and 4.0.0 write them
 * (test/ingest/fixtures/README.md says how each file was made). Reference values come from
 * the files themselves: the lines as IOR printed them, and IOR's own MiB → MB conversion in
 * its "Max Write: … MiB/sec (… MB/sec)" line.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ingestFiles } from "../../pipeline/ingest/ingest-files";
import { readBenchmarkText } from "../../pipeline/ingest/read-benchmark-source";
import { bandwidthDefinitionOf } from "../../pipeline/ingest/bandwidth-definition";
import { expectClose } from "../helpers";

const fixtures = join(__dirname, "fixtures", "ior");
const fixture = (name: string) => join(fixtures, name);
const text = (name: string) => readFileSync(fixture(name), "utf8");
const lines = (name: string) => text(name).split("\n");
/** 1-based numbers of the lines starting with `prefix`. */
const linesStarting = (name: string, prefix: string) => lines(name).flatMap((line, i) => (line.startsWith(prefix) ? [i + 1] : []));

describe("IOR's text output, 3.2.1 / 3.3.0 / 4.0.0", () => {
  for (const version of ["3.2.1", "3.3.0", "4.0.0"]) {
    it(`${version}, shared file: each write line an iteration of 2 tasks, IOR's MiB/s as MB/s; read and remove lines rejected with their lines`, async () => {
      const name = `ior-${version}-shared-2tasks-3iter.txt`;
      const result = await ingestFiles([fixture(name)]);
      const writeLines = linesStarting(name, "write ");
      const mib = writeLines.map((line) => Number(lines(name)[line - 1]!.split(/\s+/)[1]));
      expect(result.observations.runs.map((r) => r.m)).toEqual([2, 2, 2]);
      result.observations.runs.forEach((run, k) => {
        expectClose(run.aggregatedBwMbPerS, mib[k]! * 1.048576, 1e-12);
        expect(run.attributes).toMatchObject({ bandwidth_definition: "bytes-over-wall-time", benchmark: "ior", benchmark_version: version, api: "POSIX", file_layout: "single-shared-file", fsync: "yes", iteration: String(k), size_is: "setting" });
        expect(bandwidthDefinitionOf(run)).toBe("bytes-over-wall-time");
      });
      // 4 MiB blocks × segments (2, or 1 for 3.2.1) per task, in MB.
      const segments = version === "3.2.1" ? 1 : 2;
      expect(result.observations.runs[0]!.uniformSizeMb).toBe((4 * 2 ** 20 * segments) / 1e6);
      // IOR's own conversion, printed in "Max Write: 751.34 MiB/sec (787.84 MB/sec)" (both
      // rounded to 0.01 from the unrounded value: 0.011 MB/s apart at most). IOR 4 prints no such line.
      const maxMb = Number(/^Max Write: \S+ MiB\/sec \((\S+) MB\/sec\)/m.exec(text(name))?.[1] ?? Number.NaN);
      if (version !== "4.0.0") expectClose(Math.max(...result.observations.runs.map((r) => r.aggregatedBwMbPerS)), maxMb, 0, 0.011);
      // The Results table's read and remove lines (the summary's read line repeats them: not a record).
      const summaryAt = linesStarting(name, "Summary of all tests")[0]!;
      const others = [...linesStarting(name, "read "), ...linesStarting(name, "remove ")].filter((line) => line < summaryAt).sort((a, b) => a - b);
      expect(result.rejects.map((r) => r.line)).toEqual(others);
      expect(new Set(result.rejects.map((r) => r.code))).toEqual(new Set(["not-a-write"]));
      expect(result.rejects[0]!.raw).toBe(lines(name)[others[0]! - 1]);
      expect(result.counts).toEqual({ read: 3 + others.length, accepted: 3, rejected: others.length });
    });

    it(`${version}, file per process: 4 tasks of 2 MiB × 2 segments`, async () => {
      const result = await ingestFiles([fixture(`ior-${version}-fpp-4tasks-2iter.txt`)]);
      expect(result.observations.runs).toHaveLength(2);
      for (const run of result.observations.runs) {
        expect(run).toMatchObject({ m: 4, uniformSizeMb: (2 * 2 ** 20 * 2) / 1e6 });
        expect(run.attributes).toMatchObject({ file_layout: "file-per-process", transfer_size_bytes: "524288" });
      }
      expect(result.observations.series).toHaveLength(1);
      expect(result.observations.series[0]!.points[0]!.count).toBe(2);
      expect(result.warnings?.join("\n")).toMatch(/Summary of all tests" not used/);
    });

    it(`${version}, JSON summary: the Results entries are the iterations`, async () => {
      const name = `ior-${version}-json-summary.json`;
      const result = await ingestFiles([fixture(name)]);
      const document = JSON.parse(text(name).slice(text(name).search(/^\{\s*$/m)));
      const entries = (document.tests[0].Results as unknown[]).flat() as { access: string; bwMiB: number }[];
      const writes = entries.filter((e) => e.access === "write");
      expect(result.observations.runs.map((r) => r.aggregatedBwMbPerS)).toEqual(writes.map((e) => e.bwMiB * 1.048576));
      expect(result.observations.runs.map((r) => [r.m, r.uniformSizeMb])).toEqual([[2, 2.097152], [2, 2.097152]]);
      expect(result.observations.runs[0]!.attributes).toMatchObject({ fsync: "yes", file_layout: "single-shared-file", transfer_size_bytes: "1048576" });
      // The remove entries (IOR 3.x lists them) are records, rejected at their "access" line.
      const removeLines = lines(name).flatMap((line, i) => (/"access": "remove"/.test(line) ? [i + 1] : []));
      expect(result.rejects.map((r) => [r.line, r.code])).toEqual(removeLines.map((line) => [line, "not-a-write"]));
      if (version === "3.2.1") expect(result.warnings?.join("\n")).toMatch(/8 line\(s\) before IOR's JSON object skipped/);
    });
  }

  it("one output with tests of 1, 2 and 4 tasks is one trace: a size series of three m", async () => {
    for (const version of ["3.3.0", "4.0.0"]) {
      const result = await ingestFiles([fixture(`ior-${version}-scaling-script.txt`)]);
      expect(result.observations.runs.map((r) => [r.runId, r.m])).toEqual([
        ["test0.iter0", 1],
        ["test0.iter1", 1],
        ["test1.iter0", 2],
        ["test1.iter1", 2],
        ["test2.iter0", 4],
        ["test2.iter1", 4],
      ]);
      expect(result.observations.series).toHaveLength(1);
      expect(result.observations.series[0]!.points.map((p) => [p.m, p.count])).toEqual([[1, 2], [2, 2], [4, 2]]);
      // Set in the script file, IOR's command line does not say whether it fsynced.
      expect(result.observations.runs[0]!.attributes?.fsync).toBe("unknown");
    }
  });

  it("several files make one trace, their runs apart (run ids are per file)", async () => {
    const result = await ingestFiles([fixture("ior-3.3.0-fpp-4tasks-2iter.txt"), fixture("ior-4.0.0-fpp-4tasks-2iter.txt")]);
    expect(result.observations.runs).toHaveLength(4);
    expect(new Set(result.observations.runs.map((r) => r.source)).size).toBe(2);
    expect(result.observations.series[0]!.points[0]!.count).toBe(4);
  });

  it("only the summary there: each test's mean used as one run, said, with the spread kept", async () => {
    const name = "ior-3.3.0-summary-only.txt";
    const result = await ingestFiles([fixture(name)]);
    const summaryLines = linesStarting(name, "write ");
    const means = summaryLines.map((line) => Number(lines(name)[line - 1]!.split(/\s+/)[3]));
    expect(result.observations.runs.map((r) => [r.runId, r.m])).toEqual([["test0.summary", 1], ["test1.summary", 2], ["test2.summary", 4]]);
    result.observations.runs.forEach((run, k) => {
      expectClose(run.aggregatedBwMbPerS, means[k]! * 1.048576, 1e-12);
      expect(run.attributes).toMatchObject({ summary_of_iterations: "2", file_layout: "file-per-process" });
      expect(Number(run.attributes!.summary_sd_mb_per_s)).toBeGreaterThan(0);
    });
    expect(result.warnings?.filter((w) => /has only IOR's summary of 2 iterations/.test(w))).toHaveLength(3);
  });

  it("a stonewalled test: the size is an outcome, the bytes IOR says it moved over its tasks", async () => {
    const result = await ingestFiles([fixture("ior-4.0.0-stonewall.txt")]);
    const [run] = result.observations.runs;
    // "WARNING: Using actual aggregate bytes moved = 656408576" at line 36, 2 tasks; "write 370.81 …" at line 38.
    expect(run).toMatchObject({ m: 2, uniformSizeMb: 656408576 / 2 / 1e6 });
    expect(run!.attributes?.size_is).toBe("outcome");
    expectClose(run!.aggregatedBwMbPerS, 370.81 * 1.048576, 1e-12);
  });

  it("every line that cannot be read is rejected with its line and why", async () => {
    const name = "ior-4.0.0-with-problems.txt";
    const result = await ingestFiles([fixture(name)]);
    const problems = result.rejects.filter((r) => r.code !== "not-a-write");
    expect(problems.map((r) => [r.line, r.code])).toEqual([
      [33, "malformed-result"],
      [35, "malformed-result"],
    ]);
    expect(problems[0]!.reason).toMatch(/expected 11 fields as in the table's header \(access bw\(MiB\/s\) IOPS .* iter\), found 9/);
    expect(problems[1]!.reason).toMatch(/bw\(MiB\/s\) must be a number > 0, found "NA"/);
    expect(problems[1]!.raw).toBe(lines(name)[34]);
    expect(result.counts.read).toBe(result.counts.accepted + result.counts.rejected);
    expect(result.observations.runs).toHaveLength(1);
  });

  it("strict mode stops at the first rejected line with file:line: reason", async () => {
    await expect(ingestFiles([fixture("ior-4.0.0-with-problems.txt")], { strict: true })).rejects.toThrow(/ior-4\.0\.0-with-problems\.txt:32: .*an IOR read phase/);
  });

  it("an IOR output without a result says what IOR reported", () => {
    const failed = "IOR-3.2.1: MPI Coordinated Test of Parallel I/O\nior ERROR: N:1 (strided) requires xfer-size == block-size, errno 2\n";
    expect(() => readBenchmarkText(failed, "ior-text", "failed.txt")).toThrow(/failed\.txt: read as IOR 3\.2\.1 text output, but it holds no result: the benchmark reported "ior ERROR: N:1 \(strided\)/);
  });
});
