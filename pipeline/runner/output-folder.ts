/**
 * The pipeline's output folder (`reports/` by default), guarded and replaced whole.
 *
 * - **One run at a time.** A run takes `.<name>.lock` next to the folder (created
 *   exclusively, holding the pid, host and start time). A second run on the same folder is
 *   refused with who holds it since when. A lock whose process is gone (same host, pid not
 *   running) is stale: it is taken over and the takeover is logged. A lock from another host
 *   cannot be checked and is never taken over; the message says how to remove it.
 * - **Built aside, swapped in.** The run works in a sibling folder `.<name>.next-<pid>`,
 *   seeded with the previous folder's files (the stages' skip rules need the previous
 *   artifacts) as hard links, not copies: every write into the folder is a temporary file
 *   renamed over its target (shared/atomic-write.ts), which replaces the link in the new
 *   folder and leaves the previous folder's file untouched. Copying and then deleting a
 *   report's ~450 files (20 MB) took ~1.4 s of a run that changes nothing; linking and
 *   unlinking them ~0.1 s. Where the file system refuses hard links, files are copied.
 *   Only a run that finished is swapped in, made durable first: one syncfs of its file
 *   system (`sync -f`) rather than an fsync per file as it is written (~190 of them at
 *   ~5 ms each on a virtual disk for a forced run); an fsync per file where `sync -f` is
 *   not available. Then `<name>` → `.<name>.old-<pid>`,
 *   the new one → `<name>`, then the old one is removed. A crash or a failed stage leaves
 *   the previous folder whole, and its manifest describes exactly the files in it.
 * - **Leftovers.** The next run, holding the lock, puts back a folder a crash left renamed
 *   between the two renames, and removes stale `.next-`/`.old-` folders and temporary files.
 */
import { spawnSync } from "node:child_process";
import { hostname as osHostname } from "node:os";
import {
  closeSync,
  copyFileSync,
  existsSync as fileExists,
  fsyncSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { InputError } from "../shared/errors";
import { STATE_PATH as PIPELINE_STATE_PATH } from "./run-stages";
import { processAlive } from "../shared/process-alive";

export interface OutputFolderOptions {
  log?: (line: string) => void;
  /** The process id recorded in the lock (tests pass another one). */
  pid?: number;
}

interface LockRecord {
  pid: number;
  host: string;
  startedAt: string;
}

/**
 * Run `build(folder)` on a copy of `out` and swap it in when it resolves; one run per folder
 * at a time. `build` must write by replacing files (shared/atomic-write.ts), never into an
 * existing file: the copy's files are hard links to the previous folder's.
 */
export async function withOutputFolder<T>(out: string, build: (folder: string) => Promise<T>, options: OutputFolderOptions = {}): Promise<T> {
  const log = options.log ?? (() => {});
  const pid = options.pid ?? process.pid;
  const target = resolve(out);
  const parent = dirname(target);
  const name = basename(target);
  refuseForeignFolder(target, out);
  mkdirSync(parent, { recursive: true });
  const lock = join(parent, `.${name}.lock`);
  acquireLock(lock, out, pid, log);
  try {
    recoverLeftovers(parent, name, log);
    const next = join(parent, `.${name}.next-${pid}`);
    rmSync(next, { recursive: true, force: true });
    if (fileExists(target)) linkTree(target, next);
    else mkdirSync(next, { recursive: true });
    let result: T;
    try {
      result = await build(next);
    } catch (error) {
      rmSync(next, { recursive: true, force: true });
      throw error;
    }
    syncFolder(next);
    const old = join(parent, `.${name}.old-${pid}`);
    if (fileExists(target)) renameSync(target, old);
    renameSync(next, target);
    rmSync(old, { recursive: true, force: true });
    return result;
  } finally {
    rmSync(lock, { force: true });
  }
}

/**
 * `to` as a copy of the folder `from` whose files are hard links to `from`'s (copies where
 * the file system refuses links; a symbolic link is linked as itself, as link(2) does).
 */
function linkTree(from: string, to: string): void {
  mkdirSync(to);
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = join(from, entry.name);
    const destination = join(to, entry.name);
    if (entry.isDirectory()) linkTree(source, destination);
    else {
      try {
        linkSync(source, destination);
      } catch {
        copyFileSync(source, destination);
      }
    }
  }
}

/** Every file of `folder` on disk: its file system synced at once (Linux), else file by file. */
function syncFolder(folder: string): void {
  if (process.platform === "linux" && spawnSync("sync", ["-f", folder], { stdio: "ignore" }).status === 0) return;
  const syncPath = (path: string) => {
    const fd = openSync(path, "r");
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  };
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) syncPath(path);
    }
  };
  walk(folder);
}

/** What the project itself puts in a report folder besides the pipeline's outputs: its README (kept in git) and `ckpt notebook run`'s copies. */
const PROJECT_ENTRIES = new Set(["README.md", "notebooks"]);

/** The pipeline replaces its folder whole: never a folder it did not create (e.g. `--out ~/Documents`). */
function refuseForeignFolder(target: string, out: string): void {
  if (!fileExists(target)) return;
  if (!lstatSync(target).isDirectory()) throw new InputError(`--out ${out} is a file, not a folder; give a folder for the report (new, empty, or a previous report)`);
  const foreign = readdirSync(target).filter((entry) => !PROJECT_ENTRIES.has(entry));
  if (foreign.length > 0 && !fileExists(join(target, PIPELINE_STATE_PATH))) {
    throw new InputError(
      `--out ${out} holds files that no ckpt pipeline run wrote (there is no ${PIPELINE_STATE_PATH}); the pipeline replaces its output folder whole, ` +
        `so give a new or empty folder, or the folder of an earlier report`,
    );
  }
}

function acquireLock(lock: string, out: string, pid: number, log: (line: string) => void): void {
  const record: LockRecord = { pid, host: osHostname(), startedAt: new Date().toISOString() };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lock, "wx");
      writeSync(fd, `${JSON.stringify(record)}\n`);
      closeSync(fd);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const holder = readLock(lock);
    if (holder !== null && holder.host === record.host && !processAlive(holder.pid)) {
      log(`note: removing a stale lock of ${out} (pid ${holder.pid} since ${holder.startedAt} is not running)`);
      rmSync(lock, { force: true });
      continue;
    }
    const who = holder === null ? "a run whose lock file cannot be read" : `pid ${holder.pid} on ${holder.host}`;
    throw new InputError(
      `another run holds ${out} since ${holder?.startedAt ?? "an unknown time"}, ${who} (lock ${lock}). ` +
        `Wait for it to finish, or give this run another --out; if that run is gone (another host, or a damaged lock), remove ${lock}`,
    );
  }
  throw new InputError(`cannot take the lock ${lock} of ${out}: another run took it at the same moment; run again`);
}

function readLock(lock: string): LockRecord | null {
  try {
    const record = JSON.parse(readFileSync(lock, "utf8")) as LockRecord;
    return Number.isInteger(record.pid) && typeof record.host === "string" ? record : null;
  } catch {
    return null;
  }
}

/** After a crash: the folder back if it was left renamed, stale build folders and temporary files gone. */
function recoverLeftovers(parent: string, name: string, log: (line: string) => void): void {
  const target = join(parent, name);
  const leftovers = readdirSync(parent).filter((entry) => entry.startsWith(`.${name}.next-`) || entry.startsWith(`.${name}.old-`));
  const old = leftovers.find((entry) => entry.startsWith(`.${name}.old-`));
  if (!fileExists(target) && old !== undefined) {
    log(`note: ${name} was left renamed by an interrupted run; putting it back`);
    renameSync(join(parent, old), target);
  }
  for (const entry of leftovers) {
    if (!fileExists(join(parent, entry))) continue;
    log(`note: removing ${entry}, left by an interrupted run`);
    rmSync(join(parent, entry), { recursive: true, force: true });
  }
  if (fileExists(target)) removeTemporaryFiles(target);
}

/** Files named like atomic-write's temporaries (`.<name>.<pid>.<n>.tmp`), left by a crash mid-write. */
function removeTemporaryFiles(folder: string): void {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) removeTemporaryFiles(path);
    else if (/^\..+\.\d+\.\d+\.tmp$/.test(entry.name)) rmSync(path, { force: true });
  }
}
