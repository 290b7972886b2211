/**
 * How the command backend starts a process's script on its node:
 *
 * - `local`: `/bin/sh -c <script>` here;
 * - `ssh`:   the sweep's `remoteShell` with `{node}` filled (default `ssh -o BatchMode=yes
 *            {node}`; `oarsh {node}` inside an OAR job), then `/bin/sh -c '<script>'` as the
 *            remote command (ssh hands its arguments to the remote shell as one line, hence
 *            the quoting);
 * - `srun`:  a one-task Slurm step on that node (`--overlap` so steps can share the job's
 *            nodes; Slurm ≥ 20.11), `-u` so the protocol lines are not buffered.
 *
 * In every case the script's stdin is the harness's pipe (the barrier's `go`) and its stdout
 * and stderr come back to the harness.
 */
import type { LauncherKind } from "./sweep-spec";
import { shellQuote } from "./shell-quote";

export function launcherArgv(kind: LauncherKind, node: string, script: string, remoteShell: readonly string[]): string[] {
  switch (kind) {
    case "local":
      return ["/bin/sh", "-c", script];
    case "ssh":
      return [...remoteShell.map((arg) => arg.replaceAll("{node}", node)), `/bin/sh -c ${shellQuote(script)}`];
    case "srun":
      return ["srun", "--nodes=1", "--ntasks=1", `--nodelist=${node}`, "--overlap", "-u", "/bin/sh", "-c", script];
  }
}
