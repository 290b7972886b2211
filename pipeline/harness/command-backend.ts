/**
 * The `command` backend: one parallel checkpoint run where each of the `m` processes runs
 * a templated shell command — BLCR's `cr_checkpoint --file {dir}/context.{pid} {pid}`,
 * `criu dump -t {pid} -D {dir}`, `dmtcp_command …`, or the emulator — on its node, through
 * the sweep's launcher (here, ssh, srun). Each process runs the script of
 * `process-script.ts` (start the application, barrier, time the command, measure the
 * image); `protocol-runner.ts` drives them.
 */
import { removeQuietly } from "./remove-quietly";
import { posix } from "node:path";
import { launcherArgv } from "./launcher-argv";
import { placeProcesses } from "./place-processes";
import type { Combination } from "./plan-sweep";
import { processScript } from "./process-script";
import { runProtocolProcesses } from "./protocol-runner";
import type { BackendHooks, RunResult } from "./run-result";

export async function runCommand(combination: Combination, hooks: BackendHooks = {}): Promise<RunResult> {
  const placements = placeProcesses(combination.m, combination.launcher, combination.nodes, combination.processesPerNode, combination.id);
  const processes = placements.map((p) => {
    const script = processScript({
      command: combination.command!,
      app: combination.app,
      dir: posix.join(combination.dir, combination.id, p.label),
      node: p.host,
      index: p.index,
      sizeMb: combination.sizesMb[p.index - 1]!,
      runId: combination.id,
      appReadyTimeoutS: combination.appReadyTimeoutS,
      timeoutS: combination.timeoutS,
      keepFiles: combination.keepFiles,
    });
    return { index: p.index, node: p.label, sizeMb: combination.sizesMb[p.index - 1]!, argv: launcherArgv(combination.launcher, p.host, script, combination.remoteShell) };
  });
  const timeLimitS = combination.timeoutS + (combination.app === null ? 0 : combination.appReadyTimeoutS) + 30;
  const result = await runProtocolProcesses(processes, timeLimitS, hooks);
  // The scripts remove their own folders; the run's folder is removed here when this host
  // sees the target (local, or a shared file system), whatever happened on the nodes.
  if (!combination.keepFiles && (hooks.mayRemoveFiles?.() ?? true)) removeQuietly(posix.join(combination.dir, combination.id));
  return result;
}
