/** Remove a run's leftover folder; a failure to clean up never fails a measurement. */
import { rmSync } from "node:fs";

export function removeQuietly(path: string): void {
  try {
    rmSync(path, { recursive: true, force: true });
  } catch {
    // Not ours to fix here (permissions, a path that is not a folder); the run's outcome stands.
  }
}
