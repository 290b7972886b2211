/**
 * The shell script the command backend runs for one process of a run, on its node (here,
 * over ssh, or as a Slurm step). POSIX sh plus GNU coreutils/findutils (date +%N,
 * find -printf, fractional sleep), which every Linux cluster node has.
 *
 * It prepares the process's own folder `{dir}`, starts the application when there is one
 * and waits until its resident memory reaches 90 % of its size (the application must touch
 * its memory), says `ready`, waits for `go` on stdin (the barrier: the harness sends it to
 * every process once all are ready), then times the checkpoint command with the node's
 * clock and reports
 *
 *     @ckpt-harness result rc=<exit status> start=<epoch s> end=<epoch s> bytes=<bytes in {dir}> pid=<pid>
 *
 * on stdout. The wall clock (not a monotonic one) because the harness aligns the processes
 * of several nodes to one barrier time; each process's duration is the difference of two
 * readings of one node's clock, and `date` costs about a millisecond at each end.
 * A watchdog kills the command and the application after the run's timeout, and the exit
 * trap kills the application and removes `{dir}` (unless the sweep keeps files), so an
 * interrupted run leaves nothing behind on the node.
 */
import { fillTemplate } from "./fill-template";
import { PROTOCOL_PREFIX } from "./protocol-line";
import { shellQuote } from "./shell-quote";

export interface ProcessScriptInput {
  /** The checkpoint command template. */
  command: string;
  /** The application template, or null. */
  app: string | null;
  /** The process's own folder on the target file system ({dir}). */
  dir: string;
  node: string;
  index: number;
  sizeMb: number;
  runId: string;
  appReadyTimeoutS: number;
  timeoutS: number;
  keepFiles: boolean;
}

export function processScript(input: ProcessScriptInput): string {
  const values = { node: input.node, size_mb: String(input.sizeMb), dir: input.dir, run_id: input.runId, index: String(input.index) };
  const pidVariable = input.app === null ? null : "app_pid";
  const command = fillTemplate(input.command, values, pidVariable);
  const app = input.app === null ? null : fillTemplate(input.app, values, null);
  const readyKb = Math.floor((input.sizeMb * 1e6 * 0.9) / 1024);
  const lines = [
    ...scriptPreamble(`process ${input.index} of run ${input.runId} on ${input.node}`, input.dir, ["command_pid", "app_pid"], input.keepFiles),
    'rm -rf -- "$dir" && mkdir -p -- "$dir" || { say fail "cannot create the folder $dir"; exit 70; }',
  ];
  if (app !== null) {
    lines.push(
      `${app} 1>&2 &`,
      "app_pid=$!",
      `waited=0`,
      "while :; do",
      '  if ! kill -0 "$app_pid" 2>/dev/null; then say fail "the application exited before reaching its size"; exit 71; fi',
      "  rss=$(awk '/^VmRSS:/ { print $2 }' \"/proc/$app_pid/status\" 2>/dev/null)",
      `  if [ "\${rss:-0}" -ge ${readyKb} ]; then break; fi`,
      "  waited=$((waited + 1))",
      `  if [ "$waited" -gt ${Math.ceil(input.appReadyTimeoutS * 10)} ]; then say fail "the application did not reach ${readyKb} kB resident within ${input.appReadyTimeoutS} s (appReadyTimeoutS); it must touch its memory"; exit 72; fi`,
      "  sleep 0.1",
      "done",
    );
  }
  lines.push(
    "say ready",
    'read -r go || { say fail "no go from the harness (it stopped?)"; exit 73; }',
    "start=$(date +%s.%N)",
    `${command} &`,
    "command_pid=$!",
    ...watchdogLines("command_pid", input.timeoutS),
    'wait "$command_pid"',
    "rc=$?",
    // Reaped: its pid may be reused now, so the exit trap must not kill it any more.
    'checkpointed_pid=${app_pid:-$command_pid}',
    "command_pid=''",
    "end=$(date +%s.%N)",
    "bytes=$(find \"$dir\" -type f -printf '%s\\n' 2>/dev/null | awk '{ s += $1 } END { printf \"%d\", s }')",
    // pid: the checkpointed process, the application (or the command itself when there is none).
    'say result "rc=$rc" "start=$start" "end=$end" "bytes=${bytes:-0}" "pid=$checkpointed_pid"',
  );
  return `${lines.join("\n")}\n`;
}

/**
 * The lines a per-process script starts with (the command backend's and the fio backend's):
 * strict mode, `say` for the protocol, its folder in `$dir`, and an exit trap that stops the
 * watchdog and kills the processes whose pids the variables hold, then removes the folder
 * (unless the sweep keeps its files).
 */
export function scriptPreamble(title: string, dir: string, pidVariables: readonly string[], keepFiles: boolean): string[] {
  return [
    `# ckpt-lab harness: ${title}`,
    "set -u",
    `say() { printf '${PROTOCOL_PREFIX}%s\\n' "$*"; }`,
    `dir=${shellQuote(dir)}`,
    ...pidVariables.map((name) => `${name}=''`),
    "watchdog=''",
    "cleanup() {",
    '  if [ -n "$watchdog" ]; then kill "$watchdog" 2>/dev/null; wait "$watchdog" 2>/dev/null; fi',
    ...pidVariables.map((name) => `  if [ -n "$${name}" ]; then kill -9 "$${name}" 2>/dev/null; fi`),
    keepFiles ? "  :" : '  rm -rf -- "$dir"',
    "}",
    "trap cleanup EXIT",
    "trap 'exit 143' HUP INT TERM",
  ];
}

/** A watchdog (its pid in `$watchdog`) that kills `$<pidVariable>` after `timeoutS`. */
export function watchdogLines(pidVariable: string, timeoutS: number): string[] {
  return [
    // The watchdog's sleep is a child of its own: killing the subshell alone would leave it
    // running for the whole timeout, so the subshell ends it (and waits for it) on TERM.
    `( trap 'kill $! 2>/dev/null; wait $! 2>/dev/null; exit 0' TERM; sleep ${timeoutS} & wait $!; kill -9 "$${pidVariable}" 2>/dev/null ) >/dev/null 2>&1 &`,
    "watchdog=$!",
  ];
}
