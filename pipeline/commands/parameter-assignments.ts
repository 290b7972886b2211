/**
 * `key=value` assignments given on the command line (`--param reproduce.peakM=2`,
 * `--param traces=data/x.csv`): the value is read as JSON when it parses (numbers, booleans,
 * arrays, quoted strings), as a plain string otherwise.
 */
import { UsageError } from "../shared/errors";

export function parseParameterAssignments(items: string[], flag: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const item of items) {
    const at = item.indexOf("=");
    if (at <= 0) throw new UsageError(`${flag} expects key=value, got "${item}"; e.g. ${flag} reproduce.peakM=2`);
    const key = item.slice(0, at).trim();
    const text = item.slice(at + 1);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      value = text;
    }
    out[key] = value;
  }
  return out;
}
