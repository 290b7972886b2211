/**
 * What a backend hands back for one parallel checkpoint run: either every process's
 * checkpoint (size, bytes written, start/end on the run's clock), or why the run failed.
 * Either way, what each process printed and the exact command it ran, for the run folder.
 */

/** One process's checkpoint. Times are seconds since the run's barrier release. */
export interface ProcessCheckpointResult {
  /** 1-based position of the process in the run. */
  index: number;
  /** The trace's `node` column: the host (or `local-<i>` for processes on this machine). */
  node: string;
  /** The checkpointed process's id on its node (the emulator worker, the application, or the command). */
  pid: number;
  sizeMb: number;
  /** Bytes the checkpoint wrote (the image size). */
  ckptBytes: number;
  startS: number;
  endS: number;
}

/** What one process of a run did, kept in the run folder whatever the outcome. */
export interface ProcessLog {
  index: number;
  node: string;
  /** The exact command line (or shell script) the process ran. */
  command: string;
  stdout: string;
  stderr: string;
  /** "exit 0", "exit 1", "killed by SIGKILL", "not started", … */
  exit: string;
}

export type RunResult =
  | {
      status: "done";
      processes: ProcessCheckpointResult[];
      /** Wall-clock time of the barrier release, ms since the epoch (for the host-logs events). */
      barrierEpochMs: number;
      logs: ProcessLog[];
    }
  | { status: "failed"; reason: string; logs: ProcessLog[] };

/** What the sweep runner may ask of a backend during a run. */
export interface BackendHooks {
  /** Called when every process of the run is ready, just before the barrier opens. */
  onReady?: (pids: number[]) => void;
  /** Aborting kills the run's processes; the run then ends as failed with this reason. */
  signal?: AbortSignal;
  /** Asked before the run's images are removed: false when another runner owns the sweep now (the images may be its). */
  mayRemoveFiles?: () => boolean;
}
