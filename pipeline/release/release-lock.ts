/**
 * One release hook at a time (`ckpt release --lock FILE`): two hooks acting on the same
 * cluster at once would signal and requeue the same jobs twice. The lock is the kernel's
 * (flock(2), taken through util-linux's `flock` on a descriptor this process keeps open),
 * so it is released when the hook exits however it exits — no stale lock after a crash,
 * and no process left holding it. The lock file is opened without following a link and
 * must be a regular file of the user running the hook; the holder writes its pid into it,
 * which a refused hook reports.
 */
import { spawnSync } from "node:child_process";
import { closeSync, constants, fstatSync, ftruncateSync, openSync, readSync, writeSync } from "node:fs";
import { InputError } from "../shared/errors";
import { fileSystemProblem } from "../shared/path-checks";

export const DEFAULT_LOCK = "/run/ckpt-release.lock";

/** flock's exit status when the lock is held (-E), distinct from its own errors. */
const HELD = 75;

export interface ReleaseLock {
  release(): void;
}

export function takeReleaseLock(path: string): ReleaseLock {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDWR | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK, 0o644);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new InputError(
      code === "ELOOP"
        ? `the lock ${path} is a symbolic link: the hook does not follow links; remove it, or give --lock FILE`
        : `cannot open the lock: ${fileSystemProblem(error, path)} (give --lock FILE where the user running the hook can write)`,
      { cause: error },
    );
  }
  const stat = fstatSync(fd);
  const euid = process.geteuid?.() ?? stat.uid;
  if (!stat.isFile() || stat.uid !== euid) {
    closeSync(fd);
    throw new InputError(`the lock ${path} is ${!stat.isFile() ? "not a regular file" : `owned by uid ${stat.uid}, not by the user running the hook (uid ${euid})`}: remove it, or give --lock FILE`);
  }
  const result = spawnSync("flock", ["--nonblock", "--conflict-exit-code", String(HELD), String(3)], { stdio: ["ignore", "ignore", "pipe", fd], encoding: "utf8" });
  if (result.status !== 0) {
    const holder = result.status === HELD ? readHolder(fd) : "";
    closeSync(fd);
    if (result.status === HELD) {
      throw new InputError(`another release hook holds the lock ${path}${/^\d+$/.test(holder) ? ` (pid ${holder})` : ""}: two hooks would signal and requeue the same jobs; wait for it to end`);
    }
    throw new InputError(`cannot take the lock ${path}: ${result.error !== undefined ? `flock could not run (${result.error.message}; it comes with util-linux)` : (result.stderr ?? "").trim() || `flock exited ${result.status}`}`);
  }
  ftruncateSync(fd, 0);
  writeSync(fd, `${process.pid}\n`, 0);
  return {
    release() {
      closeSync(fd);
    },
  };
}

/** The pid the holder wrote (read through the descriptor checked above, not the path again). */
function readHolder(fd: number): string {
  const buffer = Buffer.alloc(32);
  return buffer.subarray(0, readSync(fd, buffer, 0, buffer.length, 0)).toString("utf8").trim();
}
