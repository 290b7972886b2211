/**
 * IOR's JSON summary (`-O summaryFormat=JSON`, IOR 3.x and 4.x) → runs of bw(m, V), as the
 * text output's (ior-text-reader.ts): each write entry of a test's `Results` is one
 * iteration, a run of m = `Options.tasks` writers of `Parameters.blockSize` ×
 * `segmentCount` bytes at IOR's `bwMiB` (converted to MB/s); read and remove entries are
 * rejected records; a test without Results uses its `summary` entry (`bwMeanMIB`), said.
 *
 * Shapes met in real files: IOR 4 lists `Results` flat; IOR 3.x nests one array per
 * iteration. IOR 3.2 writes leftovers of earlier output before the JSON object when it
 * writes to a summary file (`[ ]`, `}`, a cut banner): the text before the first line that
 * opens the object is skipped and said. A record's line is that of its `"access"` (or, in
 * the summary, `"operation"`) key, found in the text in the order the parse meets them.
 */
import { InputError } from "../shared/errors";
import { type BenchmarkReading, type BenchmarkReject, type BenchmarkRun, MB_PER_MIB } from "./benchmark-reading";
import { BANDWIDTH_DEFINITION_ATTRIBUTE } from "./bandwidth-definition";
import { lineFinder, parseJsonObject } from "./benchmark-json";
import { rejectMessage } from "./reject-reasons";

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

export function readIorJson(text: string, file: string): BenchmarkReading {
  const { value: document, start, end } = parseJsonObject(text, file);
  if (!isObject(document) || !Array.isArray(document.tests)) {
    throw new InputError(`${file}: expected IOR's JSON summary (an object with "tests"), found ${isObject(document) ? `keys ${Object.keys(document).join(", ")}` : typeof document}`);
  }
  const warnings: string[] = [];
  const lineAt = lineFinder(text);
  if (start > 0) warnings.push(`${lineAt(start) - 1} line(s) before IOR's JSON object skipped (IOR 3.2 leaves earlier output there when it writes a summary file)`);
  const version = typeof document.Version === "string" ? document.Version : "unknown";
  const commandLine = typeof document["Command line"] === "string" ? (document["Command line"] as string) : "";

  // Lines of the "access": "<operation>" keys (the Options' "access" has a layout, with a '-').
  const accessLines: number[] = [];
  const operationLines: number[] = [];
  for (const match of text.slice(start, end).matchAll(/"access"\s*:\s*"([a-z]+)"/g)) accessLines.push(lineAt(start + match.index!));
  for (const match of text.slice(start, end).matchAll(/"operation"\s*:/g)) operationLines.push(lineAt(start + match.index!));
  let nextAccess = 0;
  let nextOperation = 0;

  const runs: BenchmarkRun[] = [];
  const rejects: BenchmarkReject[] = [];
  const summaries = Array.isArray(document.summary) ? (document.summary as unknown[]).filter(isObject) : [];
  const testsWithResults = new Set<string>();

  for (const test of document.tests as unknown[]) {
    if (!isObject(test)) continue;
    const id = String(test.TestID ?? "0");
    const parameters = isObject(test.Parameters) ? test.Parameters : {};
    const options = isObject(test.Options) ? test.Options : {};
    const m = Number(options.tasks ?? summaries.find((s) => String(s.TestID) === id)?.numTasks);
    const writerBytes = Number(parameters.blockSize) * Number(parameters.segmentCount ?? 1);
    const stonewalled = Number(parameters.deadlineForStonewall ?? 0) > 0;
    const fsync = parameters.fsync === undefined ? (/\s(-e|--fsync)(\s|$)/.test(commandLine) ? "yes" : "unknown") : Number(parameters.fsync) > 0 ? "yes" : "no";
    const attributes = (extra: Record<string, string>): Record<string, string> => ({
      [BANDWIDTH_DEFINITION_ATTRIBUTE]: "bytes-over-wall-time",
      benchmark: "ior",
      benchmark_version: version,
      api: String(parameters.api ?? options.api ?? "unknown"),
      file_layout: String(options.access ?? (Number(parameters.filePerProc) > 0 ? "file-per-process" : "single-shared-file")),
      fsync,
      test_id: id,
      transfer_size_bytes: String(parameters.transferSize ?? "unknown"),
      ...extra,
    });
    // IOR 4: [entry, …]; IOR 3.x: [[entry, …] per iteration].
    const results = Array.isArray(test.Results) ? (test.Results as unknown[]) : [];
    const entries: { entry: unknown; iteration: number }[] = [];
    results.forEach((item, k) => {
      if (Array.isArray(item)) for (const entry of item) entries.push({ entry, iteration: k });
      else entries.push({ entry: item, iteration: -1 });
    });
    let writes = 0;
    for (const { entry, iteration } of entries) {
      const line = accessLines[nextAccess++] ?? 0;
      const raw = JSON.stringify(entry);
      if (!isObject(entry)) {
        rejects.push({ line, raw, code: "malformed-result", reason: rejectMessage.malformedResult("a Results entry must be an object") });
        continue;
      }
      if (entry.access !== "write") {
        rejects.push({ line, raw, code: "not-a-write", reason: rejectMessage.notAWrite(`an IOR ${String(entry.access)} phase`) });
        continue;
      }
      testsWithResults.add(id);
      const index = iteration >= 0 ? iteration : writes;
      writes++;
      const bwMib = Number(entry.bwMiB);
      if (!Number.isInteger(m) || m < 1) {
        rejects.push({ line, raw, code: "invalid-m", reason: rejectMessage.malformedResult(`the test's Options.tasks must be a whole number ≥ 1, found ${JSON.stringify(options.tasks ?? null)}`) });
        continue;
      }
      if (!(bwMib > 0) || !Number.isFinite(bwMib)) {
        rejects.push({ line, raw, code: "malformed-result", reason: rejectMessage.malformedResult(`bwMiB must be a number > 0, found ${JSON.stringify(entry.bwMiB ?? null)}`) });
        continue;
      }
      // Stonewalled: IOR's bandwidth is over the bytes it moved, which its JSON does not list.
      const bytes = stonewalled ? (bwMib * 2 ** 20 * Number(entry.totalTime)) / m : writerBytes;
      if (!(bytes > 0) || !Number.isFinite(bytes)) {
        rejects.push({ line, raw, code: "non-positive-size", reason: rejectMessage.malformedResult(`Parameters.blockSize × segmentCount must be > 0, found ${JSON.stringify(parameters.blockSize ?? null)} × ${JSON.stringify(parameters.segmentCount ?? null)}`) });
        continue;
      }
      const sizeMb = bytes / 1e6;
      runs.push({
        runId: `test${id}.iter${index}`,
        m,
        sumSizeMb: m * sizeMb,
        uniformSizeMb: sizeMb,
        aggregatedBwMbPerS: bwMib * MB_PER_MIB,
        attributes: attributes({ iteration: String(index), size_is: stonewalled ? "outcome" : "setting" }),
        rows: 1,
        line,
      });
    }
  }
  let summariesSkipped = 0;
  for (const summary of summaries) {
    const line = operationLines[nextOperation++] ?? 0;
    const id = String(summary.TestID ?? "0");
    if (testsWithResults.has(id)) {
      summariesSkipped++;
      continue;
    }
    const raw = JSON.stringify(summary);
    if (summary.operation !== "write") {
      rejects.push({ line, raw, code: "not-a-write", reason: rejectMessage.notAWrite(`an IOR ${String(summary.operation)} summary`) });
      continue;
    }
    const m = Number(summary.numTasks);
    const meanMib = Number(summary.bwMeanMIB);
    const bytes = Number(summary.blockSize) * Number(summary.segmentCount ?? 1);
    if (!Number.isInteger(m) || m < 1 || !(meanMib > 0) || !(bytes > 0)) {
      rejects.push({ line, raw, code: "malformed-result", reason: rejectMessage.malformedResult(`numTasks (a whole number ≥ 1), bwMeanMIB and blockSize × segmentCount (> 0) are needed, found ${summary.numTasks}, ${summary.bwMeanMIB}, ${summary.blockSize} × ${summary.segmentCount}`) });
      continue;
    }
    const sizeMb = bytes / 1e6;
    runs.push({
      runId: `test${id}.summary`,
      m,
      sumSizeMb: m * sizeMb,
      uniformSizeMb: sizeMb,
      aggregatedBwMbPerS: meanMib * MB_PER_MIB,
      attributes: {
        [BANDWIDTH_DEFINITION_ATTRIBUTE]: "bytes-over-wall-time",
        benchmark: "ior",
        benchmark_version: version,
        api: String(summary.API ?? "unknown"),
        file_layout: Number(summary.filePerProc) > 0 ? "file-per-process" : "single-shared-file",
        fsync: "unknown",
        test_id: id,
        transfer_size_bytes: String(summary.transferSize ?? "unknown"),
        size_is: "setting",
        summary_of_iterations: String(summary.repetitions ?? "?"),
        summary_min_mb_per_s: String(Number(summary.bwMinMIB) * MB_PER_MIB),
        summary_max_mb_per_s: String(Number(summary.bwMaxMIB) * MB_PER_MIB),
        summary_sd_mb_per_s: String(Number(summary.bwStdMIB) * MB_PER_MIB),
      },
      rows: 1,
      line,
    });
    warnings.push(`test ${id} (line ${line}) has only IOR's summary of ${summary.repetitions ?? "?"} iterations, no Results entry: its mean (${meanMib} MiB/s) is used as one run, its min, max and standard deviation kept as attributes`);
  }
  if (summariesSkipped > 0) warnings.push(`${summariesSkipped} "summary" entr${summariesSkipped === 1 ? "y" : "ies"} not used: they summarise the Results entries read (every iteration is a run)`);
  rejects.sort((a, b) => a.line - b.line);
  return { detected: `IOR ${version === "unknown" ? "(version not stated)" : version} JSON summary`, runs, rejects, warnings };
}
