/**
 * A stand-in application to checkpoint (`ckpt harness hold --size-mb N`, or this script run
 * by node): it allocates N MB, writes every page, and then waits until it is killed —
 * what the command backend's `"app"` starts so that a real checkpointer (CRIU, DMTCP, …)
 * has a process of a known size to save.
 */
import { allocateTouchedMemory } from "./blcr-image";

/** Allocate and touch `sizeMb` MB, then keep the process (and its memory) alive. */
export function holdMemory(sizeMb: number): void {
  // Before allocating: a SIGTERM while the pages are being touched is a clean stop too.
  process.on("SIGTERM", () => process.exit(0));
  const memory = allocateTouchedMemory(sizeMb);
  setInterval(() => memory.chunks.length, 1 << 30);
}

if (require.main === module) {
  const index = process.argv.indexOf("--size-mb");
  const sizeMb = Number(index >= 0 ? process.argv[index + 1] : NaN);
  if (!(sizeMb > 0) || !Number.isFinite(sizeMb)) {
    process.stderr.write(`hold-app: --size-mb expects a size in MB > 0, got "${index >= 0 ? process.argv[index + 1] : ""}"\n`);
    process.exit(2);
  }
  holdMemory(sizeMb);
}
