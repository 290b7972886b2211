/**
 * The release hook's log (`ckpt release --log FILE`): one JSON object per line, appended
 * and synced to disk as each thing happens — the plan, each signal, end and requeue, the
 * outcome — so that a hook stopped half-way (killed, the machine down) leaves a record of
 * every signal it sent. Runs append to the same file (a cron entry or `--watch` keeps one
 * log), each line naming its release.
 *
 * The file is created with an exclusive, no-follow open, and an existing one is appended
 * to only when it is a regular file of the user running the hook: a log in a folder
 * others can write must not become a way to write through a planted symbolic link.
 */
import { closeSync, constants, fstatSync, fsyncSync, openSync, writeSync } from "node:fs";
import { InputError } from "../shared/errors";
import { fileSystemProblem } from "../shared/path-checks";

export interface ReleaseLogWriter {
  /** Append one record as a line and sync it. */
  append(record: Record<string, unknown>): void;
  close(): void;
}

export function openReleaseLog(path: string): ReleaseLogWriter {
  const append = constants.O_WRONLY | constants.O_APPEND | constants.O_NOFOLLOW;
  let fd: number;
  try {
    fd = openSync(path, append | constants.O_CREAT | constants.O_EXCL, 0o640);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw logError(path, error);
    try {
      fd = openSync(path, append | constants.O_NONBLOCK);
    } catch (again) {
      throw logError(path, again);
    }
    const stat = fstatSync(fd);
    const euid = process.geteuid?.() ?? stat.uid;
    if (!stat.isFile() || stat.uid !== euid) {
      closeSync(fd);
      throw new InputError(`--log ${path}: ${!stat.isFile() ? "not a regular file" : `owned by uid ${stat.uid}, not by the user running the hook (uid ${euid})`}; give a log file of your own (it is created if missing)`);
    }
  }
  return {
    append(record) {
      const bytes = Buffer.from(`${JSON.stringify(record)}\n`, "utf8");
      for (let offset = 0; offset < bytes.length; ) offset += writeSync(fd, bytes, offset, bytes.length - offset);
      fsyncSync(fd);
    },
    close() {
      closeSync(fd);
    },
  };
}

function logError(path: string, error: unknown): InputError {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ELOOP") return new InputError(`--log ${path} is a symbolic link: the hook does not write through links; give the log file itself`);
  return new InputError(`--log: ${fileSystemProblem(error, path)}`, { cause: error });
}
