/**
 * The progress of a long simulation on stderr, in the harness's style: on a terminal one
 * line redrawn in place, `[########........]  42%  run 2/3 (seed 1, pckp)  512/1000 jobs,
 * t = 120.3 h, 1.2 M events`; elsewhere (a log file, a job array's output) the same line
 * when a run starts and then at most every 10 s, so that logs stay short.
 */
export interface ProgressState {
  /** Fraction of the whole work done, in [0, 1]. */
  fraction: number;
  /** Which piece of work is running (changes print a line even off a terminal). */
  stage: string;
  /** What it has done so far. */
  detail: string;
}

export function formatProgressBar(state: ProgressState, width = 24): string {
  const fraction = Math.min(1, Math.max(0, state.fraction));
  const filled = Math.round(fraction * width);
  return `[${"#".repeat(filled)}${".".repeat(width - filled)}] ${String(Math.floor(100 * fraction)).padStart(3)}%  ${state.stage}${state.detail ? `  ${state.detail}` : ""}`;
}

/** A printer of progress states: `tty` redraws one line with `write`, else `line` prints whole lines. */
export function progressPrinter(options: { tty: boolean; write: (text: string) => void; line: (text: string) => void; now?: () => number }): ((state: ProgressState) => void) & { end(): void } {
  const now = options.now ?? (() => performance.now());
  let drawn = false;
  let lastStage = "";
  let lastLineMs = -Infinity;
  const print = (state: ProgressState) => {
    const text = formatProgressBar(state);
    if (options.tty) {
      options.write(`\r\x1b[K${text}`);
      drawn = true;
      return;
    }
    if (state.stage !== lastStage || now() - lastLineMs >= 10_000) {
      lastStage = state.stage;
      lastLineMs = now();
      options.line(text);
    }
  };
  return Object.assign(print, {
    end() {
      if (drawn) options.write("\n");
      drawn = false;
    },
  });
}
