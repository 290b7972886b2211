/**
 * The lines of a trace file, streamed: plain text or gzip (`.gz`, read with Node's zlib),
 * with their 1-based line numbers, and the sha256 of the file's bytes computed on the way.
 * A UTF-8 byte-order mark is skipped; CRLF and LF line ends are both accepted.
 */
import { createHash } from "node:crypto";
import { createReadStream, statSync } from "node:fs";
import { createInterface } from "node:readline";
import { createGunzip } from "node:zlib";
import { InputError } from "../../shared/errors";
import { cannotRead } from "../../input/messages";

export interface TraceLines {
  /** Lines without their line end, with line numbers from 1. */
  lines: AsyncIterable<{ number: number; text: string }>;
  /** The file's sha256, available once every line has been read. */
  sha256(): string;
}

export function readTraceLines(path: string): TraceLines {
  let stat;
  try {
    stat = statSync(path);
  } catch (error) {
    throw new InputError(cannotRead("the trace", path, (error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (error as Error).message), { cause: error });
  }
  if (!stat.isFile()) throw new InputError(`the trace "${path}" is not a file; give an FTA event_trace table (.tab) or an .avt file, possibly gzipped`);
  const hash = createHash("sha256");
  const raw = createReadStream(path);
  raw.on("data", (chunk) => hash.update(chunk));
  const text = path.endsWith(".gz") ? raw.pipe(createGunzip()) : raw;
  let digest: string | null = null;
  async function* lines() {
    const reader = createInterface({ input: text, crlfDelay: Infinity });
    let number = 0;
    try {
      for await (const line of reader) {
        number++;
        yield { number, text: number === 1 && line.charCodeAt(0) === 0xfeff ? line.slice(1) : line };
      }
    } catch (error) {
      throw new InputError(`cannot read the trace "${path}" past line ${number}: ${(error as Error).message}${path.endsWith(".gz") ? " (is it really gzip?)" : ""}`, { cause: error });
    }
    digest = hash.digest("hex");
  }
  return {
    lines: lines(),
    sha256() {
      if (digest === null) throw new Error("sha256() is known only after every line was read");
      return digest;
    },
  };
}
