/**
 * Which format a trace file is in, from its first bytes: canonical CSV, IOR's text output or
 * JSON summary, or fio's JSON — and, for a file that is none of them, what it looks like, so
 * that the message says what was given rather than "no header line".
 *
 * Signs looked for (each format's own, as its writer prints it): fio's JSON has a
 * `"fio version"` key; IOR's JSON summary a `"tests"` array next to `"Began"` or
 * `"Command line"`; IOR's text output its banner (`IOR-3.3.0: MPI Coordinated Test of
 * Parallel I/O`), a `Results:` table headed `access bw(MiB/s)`, or a `Summary of all
 * tests:` block; `ckpt release --log`'s log its first line, a plan record
 * (`{"type":"plan","release":…`). Anything else that is text is taken as canonical CSV when its first line
 * has a comma or semicolon (the canonical reader then checks its header); otherwise it is
 * described — fio's normal or terse output, another JSON document, a text without a header.
 */
export type BenchmarkFormat = "ior-text" | "ior-json" | "fio-json" | "release-log";
export type DetectedFormat = "canonical" | BenchmarkFormat;

export type Detection = { format: DetectedFormat } | { format: null; looksLike: string };

/** What each detected format is called in messages. */
export const FORMAT_NAMES: Record<DetectedFormat | "host-logs", string> = {
  canonical: "canonical CSV",
  "host-logs": "host logs",
  "ior-text": "IOR text output",
  "ior-json": "IOR JSON summary",
  "fio-json": "fio JSON",
  "release-log": "ckpt release log",
};

export function detectTraceFormat(sample: string): Detection {
  const text = sample.replace(/^\uFEFF/, "");
  if (/^\s*\{"type":"plan","release":\d+,/.test(text)) return { format: "release-log" };
  if (/"fio version"\s*:/.test(text)) return { format: "fio-json" };
  if (/"tests"\s*:\s*\[/.test(text) && /"(Began|Command line)"\s*:/.test(text)) return { format: "ior-json" };
  if (/^IOR-\d\S*: MPI Coordinated Test/m.test(text) || /^Summary of all tests:\s*$/m.test(text) || /^access\s+bw\(MiB\/s\)/m.test(text)) return { format: "ior-text" };
  if (/^\s*[{[]/.test(text)) {
    const keys = [...text.matchAll(/^\s{0,4}"([^"]{1,40})"\s*:/gm)].slice(0, 8).map((match) => match[1]);
    return { format: null, looksLike: `JSON${keys.length > 0 ? ` with the keys ${keys.join(", ")}` : ""}, neither fio's (no "fio version") nor IOR's JSON summary (no "tests" with "Began")` };
  }
  if (/^\S+: \(g=\d+\): rw=/m.test(text) || /^Run status group \d+/m.test(text)) {
    return { format: null, looksLike: "fio's normal (text) output; rerun fio with --output-format=json (or json+), which this reads" };
  }
  if (/^3;fio-\d/m.test(text)) return { format: null, looksLike: "fio's terse output; rerun fio with --output-format=json (or json+), which this reads" };
  return { format: "canonical" };
}
