/**
 * Whether a process of this host is still running, for the locks and leases a crashed run
 * leaves behind (runner/output-folder.ts, harness/lease.ts): signal 0 checks without
 * signalling; EPERM means it runs under another user, which still counts as running.
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
