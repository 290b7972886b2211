/**
 * The line protocol between the harness and a process it runs through a launcher (a
 * command-backend script, or the emulator on a remote node), on the process's stdout:
 *
 *     @ckpt-harness ready                       memory in place; waiting for "go" on stdin
 *     @ckpt-harness fail <message>              could not get ready (the run fails)
 *     @ckpt-harness result rc=<status> start=<epoch s> end=<epoch s> bytes=<image bytes> pid=<pid>
 *
 * Every other line is the process's own output, kept in the run folder.
 */
export const PROTOCOL_PREFIX = "@ckpt-harness ";

/** One protocol line parsed: `ready`, `fail <message>`, or `result` with its fields. */
export type ProtocolLine =
  | { kind: "ready" }
  | { kind: "fail"; message: string }
  | { kind: "result"; rc: number; startEpochS: number; endEpochS: number; bytes: number; pid: number }
  | { kind: "malformed"; text: string };

export function parseProtocolLine(line: string): ProtocolLine | null {
  if (!line.startsWith(PROTOCOL_PREFIX)) return null;
  const rest = line.slice(PROTOCOL_PREFIX.length).trim();
  if (rest === "ready") return { kind: "ready" };
  if (rest.startsWith("fail")) return { kind: "fail", message: rest.slice(4).trim() };
  if (rest.startsWith("result ")) {
    const fields = Object.fromEntries(rest.slice(7).trim().split(/\s+/).map((kv) => kv.split("=", 2) as [string, string]));
    const rc = Number(fields.rc);
    const startEpochS = Number(fields.start);
    const endEpochS = Number(fields.end);
    const bytes = Number(fields.bytes);
    const pid = Number(fields.pid);
    if ([rc, startEpochS, endEpochS, bytes, pid].every(Number.isFinite) && fields.pid !== undefined) return { kind: "result", rc, startEpochS, endEpochS, bytes, pid };
  }
  return { kind: "malformed", text: rest };
}
