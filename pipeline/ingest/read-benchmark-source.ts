/**
 * Read one IOR or fio result file into the ledger: the whole file as text (a benchmark's
 * output is kilobytes to a few megabytes: `json+` with its latency bins for hundreds of
 * jobs), the reader its format calls for, the runs and rejects appended.
 */
import { InputError } from "../shared/errors";
import { appendBenchmarkReading, type BenchmarkReading } from "./benchmark-reading";
import type { ByteSource } from "./byte-source";
import type { BenchmarkFormat } from "./detect-trace-format";
import { readFioJson } from "./fio-json-reader";
import { readIorJson } from "./ior-json-reader";
import { readIorText } from "./ior-text-reader";
import { readReleaseLog } from "./release-log-reader";
import type { RowLedger } from "./row-ledger";
import { sniffTraceEncoding } from "./trace-encoding";

/** Larger files are refused: no benchmark writes that much, a wrong file does. */
export const MAX_BENCHMARK_BYTES = 256 << 20;

export async function readSourceText(source: ByteSource, maxBytes = MAX_BENCHMARK_BYTES): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(1 << 20);
    const n = await source.read(chunk, 0, chunk.length, size);
    if (n === 0) break;
    size += n;
    if (size > maxBytes) throw new InputError(`${source.name} is larger than ${maxBytes >> 20} MiB: not an IOR or fio result file (they are kilobytes); is it the right file?`);
    chunks.push(chunk.subarray(0, n));
  }
  const bytes = Buffer.concat(chunks);
  sniffTraceEncoding(bytes.subarray(0, 1 << 16), source.name, bytes.length <= 1 << 16);
  return bytes.toString("utf8").replace(/^\uFEFF/, "");
}

/** Parse a benchmark's result text (no ledger: tests, notebooks). */
export function readBenchmarkText(text: string, format: BenchmarkFormat, file: string): BenchmarkReading {
  const reading =
    format === "fio-json" ? readFioJson(text, file) : format === "ior-json" ? readIorJson(text, file) : format === "release-log" ? readReleaseLog(text) : readIorText(text);
  if (reading.runs.length === 0 && reading.rejects.length === 0) {
    if (format === "release-log") throw new InputError(`${file}: read as ${reading.detected}, but it has no line; is it the log \`ckpt release --log\` wrote?`);
    const error = /^.*\b(ERROR|error)\b.*$/m.exec(text)?.[0];
    throw new InputError(
      `${file}: read as ${reading.detected}, but it holds no result: ${error !== undefined ? `the benchmark reported "${error.trim().slice(0, 160)}"` : format === "fio-json" ? "no job entry" : "no Results table and no Summary of all tests"}; was the run complete?`,
    );
  }
  return reading;
}

/**
 * Read `source` as `format` into the ledger. Returns what was detected, the warnings (each
 * naming the file), and Σ m − Σ rows of the accepted runs (see `appendBenchmarkReading`).
 */
export async function readBenchmarkSource(
  source: ByteSource,
  format: BenchmarkFormat,
  ledger: RowLedger,
  strict: boolean,
): Promise<{ detected: string; warnings: string[]; writersBeyondRows: number }> {
  const reading = readBenchmarkText(await readSourceText(source), format, source.name);
  const writersBeyondRows = appendBenchmarkReading(reading, ledger, source.name, strict);
  return { detected: reading.detected, warnings: reading.warnings.map((w) => `${source.name}: ${w}`), writersBeyondRows };
}
