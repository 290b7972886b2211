/**
 * Read an availability trace in either format the simulators take, told by its name: an
 * FTA `event_trace` table (`.tab`, `.txt`) or a Godfrey `.avt` file, each possibly gzipped
 * (`.gz`); `format` overrides the guess.
 *
 * A sweep runs many cells on one trace in one process: the last traces read are kept, keyed
 * by the file's path, size and modification time, so a 51 662-node file is parsed once, not
 * once per cell. Callers must not modify the trace they get.
 */
import { statSync } from "node:fs";
import { resolve } from "node:path";
import { InputError } from "../../shared/errors";
import type { AvailabilityTrace, TraceFormat } from "./availability-trace";
import { readAvtTrace } from "./avt-reader";
import { readFtaTrace } from "./fta-reader";

export function traceFormatOf(path: string): TraceFormat | null {
  const name = path.replace(/\.gz$/, "");
  if (/\.avt$/i.test(name)) return "avt";
  if (/\.(tab|txt|tsv)$/i.test(name)) return "fta";
  return null;
}

const KEPT = 2;
const kept = new Map<string, Promise<AvailabilityTrace>>();

export async function readAvailabilityTrace(path: string, format?: TraceFormat): Promise<AvailabilityTrace> {
  const chosen = format ?? traceFormatOf(path);
  if (chosen === null) {
    throw new InputError(`cannot tell the format of the trace "${path}" from its name: name it .tab (FTA event_trace) or .avt (Godfrey), optionally .gz, or give the format`);
  }
  let key: string | null = null;
  try {
    const stat = statSync(path);
    key = `${chosen}\u0000${resolve(path)}\u0000${path}\u0000${stat.size}\u0000${stat.mtimeMs}`;
  } catch {
    // The reader says what is wrong with the path.
  }
  const hit = key === null ? undefined : kept.get(key);
  if (hit !== undefined) return hit;
  const reading = chosen === "avt" ? readAvtTrace(path) : readFtaTrace(path);
  if (key !== null) {
    kept.set(key, reading);
    reading.catch(() => kept.delete(key!));
    while (kept.size > KEPT) kept.delete(kept.keys().next().value!);
  }
  return reading;
}
