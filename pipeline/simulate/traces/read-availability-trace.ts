/**
 * Read an availability trace in either format the simulators take, told by its name: an
 * FTA `event_trace` table (`.tab`, `.txt`) or a Godfrey `.avt` file, each possibly gzipped
 * (`.gz`); `format` overrides the guess.
 */
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

export async function readAvailabilityTrace(path: string, format?: TraceFormat): Promise<AvailabilityTrace> {
  const chosen = format ?? traceFormatOf(path);
  if (chosen === null) {
    throw new InputError(`cannot tell the format of the trace "${path}" from its name: name it .tab (FTA event_trace) or .avt (Godfrey), optionally .gz, or give the format`);
  }
  return chosen === "avt" ? readAvtTrace(path) : readFtaTrace(path);
}
