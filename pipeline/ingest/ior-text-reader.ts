/**
 * IOR's text output (what `mpirun … ior` prints, IOR 3.x and 4.x) → runs of bw(m, V).
 *
 * IOR prints, per test (`TestID : N`), an `Options:` block (`tasks`, `segments`, `access`,
 * `api`, `blocksize`, `xfersize`…), then a `Results:` table with one line per phase and
 * iteration (`write 734.49 … 0`), and at the end a `Summary of all tests:` table with one
 * line per test and operation (max, min, mean and standard deviation over the iterations).
 * Columns are found by their names in each table's header line, because they differ between
 * versions (3.2 has no IOPS or latency column, 3.3 adds `Stonewall(s)` to the summary).
 *
 * Each `write` line of the Results table is a run: m = the test's `tasks`, each writing
 * `block(KiB)` × `segments` bytes, and IOR's bandwidth (its `bw(MiB/s)`, converted to MB/s:
 * × 1.048576), which is the test's bytes over the wall time from the first task's open to the
 * last task's close — `bytes-over-wall-time` (bandwidth-definition.ts). `read` and `remove`
 * lines are records too, rejected as not a write. When a test has no Results line (only its
 * summary is there), its summary's write line is used as one run at the mean bandwidth, with
 * the iterations' count, min, max and standard deviation kept as attributes, and a warning
 * says so; otherwise summary lines repeat what was read and are not records.
 *
 * Decisions the format leaves open: a stonewalled test (`stonewallingTime` > 0, or IOR's
 * "Using actual aggregate bytes moved" warning) wrote what it could in the time, so its size
 * is an outcome (`size_is=outcome`) and each writer's size is the bytes moved / m. Whether
 * the test fsynced is read from its command line (`-e`, `--fsync`); set in a script, it is
 * "unknown". Several IOR outputs in one file (a job's log of several runs) are told apart by
 * their banners: from the second on, run ids start with `output<k>.`.
 */
import { type BenchmarkReading, type BenchmarkReject, type BenchmarkRun, MB_PER_MIB } from "./benchmark-reading";
import { BANDWIDTH_DEFINITION_ATTRIBUTE } from "./bandwidth-definition";
import { rejectMessage } from "./reject-reasons";

const OPERATIONS = new Set(["write", "read", "remove", "stat", "create"]);

interface TestContext {
  id: string;
  options: Map<string, string>;
  /** Write lines of its Results table accepted or rejected (the summary then repeats them). */
  resultLines: number;
  /** Bytes moved, when IOR warned that it used the actual bytes (stonewalling). */
  actualBytes: number | null;
}

/** "4 MiB", "524288 bytes", "1 GiB" → bytes (IOR's option block). */
export function iorSizeBytes(text: string | undefined): number {
  if (text === undefined) return NaN;
  const match = /^([\d.]+)\s*(bytes|KiB|MiB|GiB|TiB)?$/.exec(text.trim());
  if (match === null) return NaN;
  const scale = { bytes: 1, KiB: 2 ** 10, MiB: 2 ** 20, GiB: 2 ** 30, TiB: 2 ** 40 }[match[2] ?? "bytes"]!;
  return Number(match[1]) * scale;
}

/** Whether IOR's command line asks for an fsync after the write phase. */
function fsyncOf(commandLine: string | undefined): string {
  if (commandLine === undefined) return "unknown";
  const words = commandLine.split(/\s+/);
  if (words.includes("-e") || words.includes("--fsync") || words.includes("fsync=1")) return "yes";
  return words.includes("-f") ? "unknown" : "no";
}

export function readIorText(text: string): BenchmarkReading {
  const lines = text.split(/\r?\n/);
  const runs: BenchmarkRun[] = [];
  const rejects: BenchmarkReject[] = [];
  const warnings: string[] = [];
  let version = "unknown";
  let commandLine: string | undefined;
  let outputs = 0;
  let tests = new Map<string, TestContext>();
  let test: TestContext | null = null;
  let mode: "none" | "options" | "results-header" | "results" | "summary-header" | "summary" = "none";
  let columns: string[] = [];
  let summaryLinesSkipped = 0;

  const prefix = () => (outputs > 1 ? `output${outputs}.` : "");
  const reject = (line: number, raw: string, code: BenchmarkReject["code"], reason: string) => rejects.push({ line, raw, code, reason });

  /** The attributes every run of a test carries. */
  const attributesOf = (context: TestContext, api: string | undefined, extra: Record<string, string>): Record<string, string> => ({
    [BANDWIDTH_DEFINITION_ATTRIBUTE]: "bytes-over-wall-time",
    benchmark: "ior",
    benchmark_version: version,
    api: context.options.get("api") ?? api ?? "unknown",
    file_layout: context.options.get("access") ?? "unknown",
    fsync: fsyncOf(commandLine),
    test_id: context.id,
    ...extra,
  });

  const readResultLine = (fields: string[], lineNumber: number, raw: string) => {
    const value = (name: string) => fields[columns.indexOf(name)];
    const operation = fields[0]!;
    if (operation !== "write") {
      reject(lineNumber, raw, "not-a-write", rejectMessage.notAWrite(`an IOR ${operation} phase`));
      return;
    }
    const context = test ?? (test = { id: "0", options: new Map(), resultLines: 0, actualBytes: null });
    context.resultLines++;
    const bwMib = Number(value("bw(MiB/s)"));
    const blockKib = Number(value("block(KiB)"));
    const xferKib = Number(value("xfer(KiB)"));
    const iteration = value("iter") ?? "0";
    const m = Number(context.options.get("tasks"));
    const segments = Number(context.options.get("segments") ?? "1");
    if (!(bwMib > 0) || !Number.isFinite(bwMib)) {
      reject(lineNumber, raw, "malformed-result", rejectMessage.malformedResult(`bw(MiB/s) must be a number > 0, found ${JSON.stringify(value("bw(MiB/s)"))}`));
      return;
    }
    if (!Number.isInteger(m) || m < 1) {
      reject(lineNumber, raw, "invalid-m", rejectMessage.malformedResult(`the test's "tasks" (its Options block) must be a whole number ≥ 1, found ${JSON.stringify(context.options.get("tasks") ?? "nothing")}`));
      return;
    }
    const stonewalled = context.actualBytes !== null || Number(context.options.get("stonewallingTime") ?? "0") > 0;
    const writerBytes = context.actualBytes !== null ? context.actualBytes / m : blockKib * 1024 * segments;
    context.actualBytes = null;
    if (!(writerBytes > 0) || !Number.isFinite(writerBytes)) {
      reject(lineNumber, raw, "non-positive-size", rejectMessage.malformedResult(`block(KiB) × segments must be > 0, found ${JSON.stringify(value("block(KiB)"))} × ${segments}`));
      return;
    }
    const sizeMb = writerBytes / 1e6;
    runs.push({
      runId: `${prefix()}test${context.id}.iter${iteration}`,
      m,
      sumSizeMb: m * sizeMb,
      uniformSizeMb: sizeMb,
      aggregatedBwMbPerS: bwMib * MB_PER_MIB,
      attributes: attributesOf(context, undefined, {
        transfer_size_bytes: String(xferKib * 1024),
        iteration,
        size_is: stonewalled ? "outcome" : "setting",
      }),
      rows: 1,
      line: lineNumber,
    });
  };

  const readSummaryLine = (fields: string[], lineNumber: number, raw: string) => {
    const value = (name: string) => fields[columns.indexOf(name)];
    const id = value("Test#") ?? "0";
    const context = tests.get(id);
    if (context !== undefined && context.resultLines > 0) {
      summaryLinesSkipped++;
      return;
    }
    const operation = fields[0]!;
    if (operation !== "write") {
      reject(lineNumber, raw, "not-a-write", rejectMessage.notAWrite(`an IOR ${operation} summary`));
      return;
    }
    const m = Number(value("#Tasks"));
    const meanMib = Number(value("Mean(MiB)"));
    const writerBytes = Number(value("segcnt")) * Number(value("blksiz"));
    if (!Number.isInteger(m) || m < 1) {
      reject(lineNumber, raw, "invalid-m", rejectMessage.malformedResult(`#Tasks must be a whole number ≥ 1, found ${JSON.stringify(value("#Tasks"))}`));
      return;
    }
    if (!(meanMib > 0) || !(writerBytes > 0)) {
      reject(lineNumber, raw, "malformed-result", rejectMessage.malformedResult(`Mean(MiB) and segcnt × blksiz must be numbers > 0, found ${JSON.stringify(value("Mean(MiB)"))} and ${JSON.stringify(value("segcnt"))} × ${JSON.stringify(value("blksiz"))}`));
      return;
    }
    const repetitions = value("reps") ?? "?";
    const mb = (name: string) => String(Number(value(name)) * MB_PER_MIB);
    const stonewalled = Number(value("Stonewall(s)")) > 0;
    const sizeMb = writerBytes / 1e6;
    const summaryContext: TestContext = context ?? { id, options: new Map(), resultLines: 0, actualBytes: null };
    runs.push({
      runId: `${prefix()}test${id}.summary`,
      m,
      sumSizeMb: m * sizeMb,
      uniformSizeMb: sizeMb,
      aggregatedBwMbPerS: meanMib * MB_PER_MIB,
      attributes: attributesOf(summaryContext, value("API"), {
        transfer_size_bytes: String(Number(value("xsize"))),
        file_layout: summaryContext.options.get("access") ?? (value("fPP") === "1" ? "file-per-process" : "single-shared-file"),
        size_is: stonewalled ? "outcome" : "setting",
        summary_of_iterations: repetitions,
        summary_min_mb_per_s: mb("Min(MiB)"),
        summary_max_mb_per_s: mb("Max(MiB)"),
        summary_sd_mb_per_s: mb("StdDev"),
      }),
      rows: 1,
      line: lineNumber,
    });
    warnings.push(
      `test ${id} (line ${lineNumber}) has only IOR's summary of ${repetitions} iterations, no Results line: its mean (${meanMib} MiB/s) is used as one run, its min, max and standard deviation kept as attributes`,
    );
  };

  lines.forEach((raw, index) => {
    const lineNumber = index + 1;
    const trimmed = raw.trim();
    const banner = /^IOR-(\S+?):/.exec(trimmed);
    if (banner !== null) {
      version = banner[1]!;
      outputs++;
      tests = new Map();
      test = null;
      mode = "none";
      return;
    }
    const command = /^Command line\s*:\s*(.*)$/.exec(trimmed);
    if (command !== null) {
      commandLine = command[1];
      return;
    }
    const testId = /^TestID\s*:\s*(\S+)/.exec(trimmed);
    if (testId !== null) {
      test = { id: testId[1]!, options: new Map(), resultLines: 0, actualBytes: null };
      tests.set(test.id, test);
      mode = "none";
      return;
    }
    if (/^Options:\s*$/.test(trimmed)) {
      mode = "options";
      return;
    }
    if (/^Results:\s*$/.test(trimmed)) {
      mode = "results-header";
      return;
    }
    if (/^Summary of all tests:\s*$/.test(trimmed)) {
      mode = "summary-header";
      return;
    }
    if (/^Finished\s*:/.test(trimmed)) {
      mode = "none";
      return;
    }
    switch (mode) {
      case "options": {
        if (trimmed === "") {
          mode = "none";
          return;
        }
        const option = /^([^:]+?)\s*:\s?(.*)$/.exec(trimmed);
        if (option !== null) (test ?? (test = { id: "0", options: new Map(), resultLines: 0, actualBytes: null })).options.set(option[1]!, option[2]!.trim());
        if (test !== null && !tests.has(test.id)) tests.set(test.id, test);
        return;
      }
      case "results-header":
      case "summary-header":
        if (trimmed === "") return;
        columns = trimmed.split(/\s+/);
        mode = mode === "results-header" ? "results" : "summary";
        return;
      case "results":
      case "summary": {
        if (/^-+(\s+-+)*$/.test(trimmed)) return;
        if (trimmed === "" || /^Max (Write|Read):/.test(trimmed)) {
          if (mode === "results") mode = "none";
          return;
        }
        const actual = /Using actual aggregate bytes moved\s*=\s*(\d+)/.exec(trimmed);
        if (actual !== null && test !== null) test.actualBytes = Number(actual[1]);
        const fields = trimmed.split(/\s+/);
        if (!OPERATIONS.has(fields[0]!)) return; // IOR's own messages inside the table (WARNING:, stonewalling pairs…)
        if (fields.length !== columns.length) {
          reject(lineNumber, raw, "malformed-result", rejectMessage.malformedResult(`expected ${columns.length} fields as in the table's header (${columns.join(" ")}), found ${fields.length}`));
          return;
        }
        if (mode === "results") readResultLine(fields, lineNumber, raw);
        else readSummaryLine(fields, lineNumber, raw);
        return;
      }
      default:
        return;
    }
  });
  if (summaryLinesSkipped > 0) {
    warnings.push(`${summaryLinesSkipped} line${summaryLinesSkipped === 1 ? "" : "s"} of IOR's "Summary of all tests" not used: they summarise the Results lines read (every iteration is a run)`);
  }
  return { detected: `IOR ${version} text output`, runs, rejects, warnings };
}
