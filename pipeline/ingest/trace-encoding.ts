/**
 * What a trace file's first bytes say about how to read it, before any line is parsed:
 * traces are UTF-8 (ASCII in practice) text with LF or CR LF line endings.
 *
 * - A UTF-8 byte-order mark is skipped (`bomBytes`).
 * - CR-only line endings (classic Mac OS, some old loggers) are read correctly: when the
 *   first line ends with a lone CR and no LF occurs in the sample, every CR is taken as a
 *   line end (`lineEnding: "cr"`; see `withCrLineEnds`). A lone CR inside an LF file stays
 *   an ordinary character.
 * - UTF-16 and UTF-32 (with a byte-order mark, or UTF-16 recognised by its NUL bytes),
 *   other NUL bytes on the first line, and compressed files are refused with a message
 *   naming what the file is and how to convert it: reading them as UTF-8 would only
 *   produce a confusing header error.
 */
import { InputError } from "../shared/errors";

export interface TraceEncoding {
  /** Bytes of a UTF-8 byte-order mark at the start (0 or 3). */
  bomBytes: number;
  lineEnding: "lf" | "cr";
}

/** Bytes enough to see the first line of any sane trace. */
export const ENCODING_SAMPLE_BYTES = 1 << 16;

const MAGIC: { bytes: number[]; what: string; fix: string }[] = [
  { bytes: [0x00, 0x00, 0xfe, 0xff], what: "UTF-32 BE text (byte-order mark 00 00 FE FF)", fix: "iconv -f UTF-32 -t UTF-8" },
  { bytes: [0xff, 0xfe, 0x00, 0x00], what: "UTF-32 LE text (byte-order mark FF FE 00 00)", fix: "iconv -f UTF-32 -t UTF-8" },
  { bytes: [0xff, 0xfe], what: "UTF-16 LE text (byte-order mark FF FE)", fix: "iconv -f UTF-16 -t UTF-8" },
  { bytes: [0xfe, 0xff], what: "UTF-16 BE text (byte-order mark FE FF)", fix: "iconv -f UTF-16 -t UTF-8" },
  { bytes: [0x1f, 0x8b], what: "gzip-compressed", fix: "gunzip -c" },
  { bytes: [0x28, 0xb5, 0x2f, 0xfd], what: "zstd-compressed", fix: "zstd -dc" },
  { bytes: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], what: "xz-compressed", fix: "xz -dc" },
  // "BZh", the block size digit (any: -1), then the block magic 0x314159265359.
  { bytes: [0x42, 0x5a, 0x68, -1, 0x31, 0x41, 0x59, 0x26, 0x53, 0x59], what: "bzip2-compressed", fix: "bzip2 -dc" },
  { bytes: [0x50, 0x4b, 0x03, 0x04], what: "a zip archive", fix: "unzip -p" },
];

function startsWith(sample: Uint8Array, bytes: number[]): boolean {
  return sample.length >= bytes.length && bytes.every((b, i) => b < 0 || sample[i] === b);
}

/**
 * Decide how to read a trace from its first bytes (`sample`, up to `ENCODING_SAMPLE_BYTES`;
 * `complete` when the sample is the whole file). Throws an `InputError` for files that are
 * not UTF-8 text.
 */
export function sniffTraceEncoding(sample: Uint8Array, file: string, complete: boolean): TraceEncoding {
  const refuse = (what: string, fix: string) =>
    new InputError(`${file} is ${what}; traces are read as UTF-8 text: convert it first, e.g. ${fix} '${file}' > trace.csv`);
  for (const magic of MAGIC) if (startsWith(sample, magic.bytes)) throw refuse(magic.what, magic.fix);
  const bomBytes = startsWith(sample, [0xef, 0xbb, 0xbf]) ? 3 : 0;

  let firstLineEnd = sample.length;
  for (let i = bomBytes; i < sample.length; i++) {
    if (sample[i] === 10 || sample[i] === 13) {
      firstLineEnd = i;
      break;
    }
  }
  const nul = sample.subarray(bomBytes, firstLineEnd).indexOf(0);
  if (nul >= 0) {
    const utf16 = sample.length >= 4 && (sample[bomBytes] === 0) !== (sample[bomBytes + 1] === 0);
    if (utf16) throw refuse(`UTF-16 ${sample[bomBytes] === 0 ? "BE" : "LE"} text without a byte-order mark (every other byte of its first line is NUL)`, "iconv -f UTF-16 -t UTF-8");
    throw new InputError(`${file}: its first line holds a NUL byte (at byte ${bomBytes + nul}): this is not a text file; give the trace CSV itself`);
  }

  const endsWithLoneCr =
    firstLineEnd < sample.length && sample[firstLineEnd] === 13 && (firstLineEnd + 1 < sample.length ? sample[firstLineEnd + 1] !== 10 : complete);
  const lineEnding = endsWithLoneCr && sample.indexOf(10) < 0 ? "cr" : "lf";
  return { bomBytes, lineEnding };
}
