/**
 * The `fio` backend: each of a run's `m` writers is one fio job of its size, on its node
 * (the sweep's launcher: here, ssh, srun), started at the harness's barrier, writing one new
 * file into its own folder `dir/<run_id>/<node>` and made durable as the sweep's `sync` says
 * (`fsync`: `end_fsync`, or `fsync_on_close` with `fsyncOnClose`; `dsync`: O_DSYNC writes;
 * `none`), with `direct` for O_DIRECT. The trace takes fio's own timings and byte count
 * (fio-process-script.ts), so a run of fio and a run of the emulator on the same sweep
 * measure the same thing — m writers of one file each, at once — with two writers: the
 * emulator's BLCR image pattern from a process's touched memory, fio's sequential writes
 * of `blockSizeKib` from its buffers.
 */
import { posix } from "node:path";
import { fioProcessScript } from "./fio-process-script";
import { launcherArgv } from "./launcher-argv";
import { placeProcesses } from "./place-processes";
import type { Combination } from "./plan-sweep";
import { runProtocolProcesses } from "./protocol-runner";
import { removeQuietly } from "./remove-quietly";
import type { BackendHooks, RunResult } from "./run-result";
import { FIO_DEFAULTS } from "./sweep-spec";

export async function runFio(combination: Combination, hooks: BackendHooks = {}): Promise<RunResult> {
  const placements = placeProcesses(combination.m, combination.launcher, combination.nodes, combination.processesPerNode, combination.id);
  const processes = placements.map((p) => {
    const sizeMb = combination.sizesMb[p.index - 1]!;
    const script = fioProcessScript({
      dir: posix.join(combination.dir, combination.id, p.label),
      node: p.host,
      index: p.index,
      runId: combination.id,
      sizeMb,
      sync: combination.sync ?? "fsync",
      fsyncOnClose: combination.fsyncOnClose ?? FIO_DEFAULTS.fsyncOnClose,
      direct: combination.direct ?? FIO_DEFAULTS.direct,
      blockSizeKib: combination.blockSizeKib ?? FIO_DEFAULTS.blockSizeKib,
      timeoutS: combination.timeoutS,
      keepFiles: combination.keepFiles,
    });
    return { index: p.index, node: p.label, sizeMb, argv: launcherArgv(combination.launcher, p.host, script, combination.remoteShell) };
  });
  const result = await runProtocolProcesses(processes, combination.timeoutS + 30, hooks);
  if (!combination.keepFiles && (hooks.mayRemoveFiles?.() ?? true)) removeQuietly(posix.join(combination.dir, combination.id));
  return result;
}
