/** What the harness tests look for on this machine: the processes a run may leave behind. */
import { readdirSync, readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";

/** Processes whose command line mentions `text` (a sweep's workers write under its target, a watchdog sleeps its timeout). */
export function processesMentioning(text: string): number[] {
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(text);
      } catch {
        return false;
      }
    })
    .map(Number);
}

/**
 * The processes mentioning `text` once they have had 5 s to go: a process killed a moment
 * ago may still be exiting, and a leftover one is still there however long we wait.
 */
export async function survivorsMentioning(text: string): Promise<number[]> {
  for (let i = 0; i < 100 && processesMentioning(text).length > 0; i++) await sleep(50);
  return processesMentioning(text);
}

/** Resolves once `condition` holds, looking every 20 ms: a wait for an event, with no limit of its own (the test's timeout is the limit). */
export async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await sleep(20);
}
