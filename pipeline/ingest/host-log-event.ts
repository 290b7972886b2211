/**
 * One line of a host event log (the "host logs" trace layout, see `host-logs-reader.ts`).
 *
 *     <time_s> ckpt_start pid=<pid> m=<m> size_mb=<MB> [key=value …]
 *     <time_s> ckpt_end pid=<pid> ckpt_bytes=<bytes> [key=value …]
 *
 * Fields are separated by spaces or tabs. `time_s` is a time in seconds (Unix time as
 * `date +%s.%N` prints it, or any clock common to the run's hosts); `ckpt_bytes` is the size
 * of the checkpoint file as `stat -c %s` prints it (MB = 10^6 bytes, docs/science.md §2). Other keys
 * are kept as extra columns. Lines starting with `#` and blank lines are not events.
 * Numbers are kept as text here: they are checked when the start and end are paired, with
 * the same checks as a canonical row.
 */

export type HostLogEvent =
  | { kind: "none" }
  | { kind: "malformed"; detail: string }
  | {
      kind: "ckpt_start" | "ckpt_end";
      timeText: string;
      pid: string;
      /** Every key=value of the line, pid included. */
      values: Map<string, string>;
    };

const REQUIRED_KEYS = { ckpt_start: ["m", "size_mb"], ckpt_end: ["ckpt_bytes"] } as const;

export function parseHostLogLine(text: string): HostLogEvent {
  const trimmed = text.trim();
  if (trimmed === "" || trimmed.startsWith("#")) return { kind: "none" };
  const tokens = trimmed.split(/[ \t]+/);
  if (tokens.length < 3) return { kind: "malformed", detail: `found ${tokens.length} field${tokens.length === 1 ? "" : "s"}` };
  const [timeText, event, ...pairs] = tokens as [string, string, ...string[]];
  if (event !== "ckpt_start" && event !== "ckpt_end") {
    return { kind: "malformed", detail: `unknown event ${JSON.stringify(event)} (second field)` };
  }
  const values = new Map<string, string>();
  for (const pair of pairs) {
    const equals = pair.indexOf("=");
    if (equals <= 0) return { kind: "malformed", detail: `${JSON.stringify(pair)} is not key=value` };
    const key = pair.slice(0, equals);
    if (values.has(key)) return { kind: "malformed", detail: `key ${key} appears twice` };
    values.set(key, pair.slice(equals + 1));
  }
  const pid = values.get("pid");
  if (pid === undefined || pid === "") return { kind: "malformed", detail: `${event} without pid=` };
  for (const key of REQUIRED_KEYS[event]) {
    if (!values.has(key)) return { kind: "malformed", detail: `${event} without ${key}=` };
  }
  return { kind: event, timeText, pid, values };
}
