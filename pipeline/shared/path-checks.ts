/**
 * Checks of the paths a command is given, before it reads or writes anything, so that a
 * wrong path gets a message that says what is wrong and how to fix it (exit 1) instead of
 * a raw ENOENT, ENOTDIR, EISDIR, ENAMETOOLONG or EACCES with a stack trace, a hang on a
 * FIFO, or an output renamed over /dev/null.
 *
 * - `checkInputPath(path, { kind, what, flag })`: the path exists, is readable, and is a
 *   regular file or a directory as `kind` asks (FIFOs, devices and sockets are refused:
 *   commands read their inputs as files, sometimes twice).
 * - `checkOutputFile(path, { flag, inputs })`: the path can be written atomically: it is
 *   not a directory or a device, its nearest existing folder is a folder we may write in
 *   (missing folders are created when writing), no name in it is too long, and it is not
 *   one of the inputs or inside an input folder.
 * - `fileSystemProblem(error, path)`: the same wording for an error met later (ENOSPC…).
 *
 * Commands call these at the start of `run` (see `pipeline/commands/ingest.ts`).
 */
import { accessSync, constants, realpathSync, statSync, type Stats } from "node:fs";
import { basename, dirname, relative, resolve, sep } from "node:path";
import { InputError } from "./errors";

/** Longest file name (one path component) common file systems allow, in bytes. */
export const MAX_NAME_BYTES = 255;

export interface InputPathCheck {
  /** What the path must be (default "file"). */
  kind?: "file" | "directory" | "file-or-directory";
  /** What it is, for messages: "trace file", "model", … (default "input"). */
  what?: string;
  /** The option that named it, for messages (e.g. "--model"); none for a positional argument. */
  flag?: string;
}

export interface OutputFileCheck {
  /** The option that named it, e.g. "--out". */
  flag: string;
  /** The command's input paths: the output may be none of them, nor inside one that is a folder. */
  inputs?: readonly string[];
}

function label(path: string, flag?: string): string {
  return flag === undefined ? path : `${flag} ${path}`;
}

function errnoOf(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | null)?.code;
}

/** A path component longer than the file system allows, if any. */
function overlongName(path: string): string | null {
  for (const name of resolve(path).split(sep)) if (Buffer.byteLength(name) > MAX_NAME_BYTES) return name;
  return null;
}

function shortName(name: string): string {
  return name.length > 40 ? `${name.slice(0, 20)}…${name.slice(-12)}` : name;
}

/** The nearest ancestor of `path` (itself included) that exists, with its stats. */
function nearestExisting(path: string): { path: string; stats: Stats | null } {
  let current = resolve(path);
  for (;;) {
    try {
      return { path: current, stats: statSync(current) };
    } catch (error) {
      const parent = dirname(current);
      const missing = errnoOf(error) === "ENOENT" || errnoOf(error) === "ENOTDIR";
      if (parent === current || !missing) return { path: current, stats: null };
      current = parent;
    }
  }
}

/** The kind of a special file, for messages; null for a regular file or directory. */
function specialKind(stats: Stats): string | null {
  if (stats.isFIFO()) return "a named pipe (FIFO)";
  if (stats.isCharacterDevice()) return "a character device";
  if (stats.isBlockDevice()) return "a block device";
  if (stats.isSocket()) return "a socket";
  return null;
}

/**
 * What a file-system error means for `path`, in words, with how to fix it. Used for
 * errors met after the checks (a file removed meanwhile, a full disk).
 */
export function fileSystemProblem(error: unknown, path: string): string {
  const code = errnoOf(error);
  switch (code) {
    case "ENOENT":
      return `no such file or directory: ${path}; check the spelling and the current folder`;
    case "ENOTDIR": {
      let prefix = resolve(path);
      while (dirname(prefix) !== prefix) {
        const parent = dirname(prefix);
        try {
          if (statSync(parent).isFile()) return `${path}: ${parent} is a file, not a folder, so nothing can be inside it`;
        } catch {
          // keep looking up
        }
        prefix = parent;
      }
      return `${path}: a part of the path is a file, not a folder`;
    }
    case "EISDIR":
      return `${path} is a folder, not a file`;
    case "ENAMETOOLONG": {
      const name = overlongName(path);
      return name === null
        ? `${path}: the path is too long for the file system; use a shorter path`
        : `${path}: the name "${shortName(name)}" is ${Buffer.byteLength(name)} bytes long; file systems allow at most ${MAX_NAME_BYTES} bytes per name`;
    }
    case "EACCES":
    case "EPERM":
      return `${path}: permission denied; check the permissions of the file and of the folders above it`;
    case "EROFS":
      return `${path} is on a read-only file system; write somewhere else`;
    case "ELOOP":
      return `${path}: too many symbolic links (a loop of links?)`;
    case "ENOSPC":
      return `no space left on the device while writing ${path}; free some space or write elsewhere`;
    case "EDQUOT":
      return `disk quota exceeded while writing ${path}`;
    case "EMFILE":
    case "ENFILE":
      return `too many open files while opening ${path}; raise the limit (ulimit -n)`;
    default:
      return `${path}: ${(error as Error)?.message ?? String(error)}`;
  }
}

/** `fileSystemProblem` as an `InputError` (exit 1) that keeps the original error as its cause. */
export function fileSystemError(error: unknown, path: string): InputError {
  return new InputError(fileSystemProblem(error, path), { cause: error });
}

/** Refuse an input path that cannot be read as `check.kind`; returns what it is. */
export function checkInputPath(path: string, check: InputPathCheck = {}): "file" | "directory" {
  const kind = check.kind ?? "file";
  const what = check.what ?? "input";
  const name = label(path, check.flag);
  if (path === "") throw new InputError(`${check.flag ?? "the " + what} is an empty path; give the ${what}'s path`);
  const overlong = overlongName(path);
  if (overlong !== null) throw new InputError(fileSystemProblem({ code: "ENAMETOOLONG" }, path));
  let stats: Stats;
  try {
    stats = statSync(path);
  } catch (error) {
    if (errnoOf(error) === "ENOENT") throw new InputError(`${name}: no such file or directory (check the spelling and the current folder)`, { cause: error });
    throw fileSystemError(error, path);
  }
  const special = specialKind(stats);
  if (special !== null) {
    throw new InputError(
      `${name} is ${special}, not a regular file: the ${what} is read from a file (sometimes twice); save the data to a file first (e.g. cat ${path} > data.csv) and give that`,
    );
  }
  if (stats.isDirectory() && kind === "file") throw new InputError(`${name} is a folder; expected a ${what} (a file)`);
  if (stats.isFile() && kind === "directory") throw new InputError(`${name} is a file; expected a folder`);
  try {
    accessSync(path, constants.R_OK | (stats.isDirectory() ? constants.X_OK : 0));
  } catch (error) {
    throw fileSystemError(error, path);
  }
  return stats.isDirectory() ? "directory" : "file";
}

/** Whether `inner` is `outer` or inside it. */
function within(inner: string, outer: string): boolean {
  const path = relative(outer, inner);
  return path === "" || (!path.startsWith("..") && !path.startsWith(sep) && path !== "..");
}

function realOrResolved(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    const parent = nearestExisting(dirname(path));
    try {
      return resolve(realpathSync(parent.path), relative(parent.path, resolve(path)));
    } catch {
      return resolve(path);
    }
  }
}

/** Refuse an output file path that cannot be written atomically (see the module comment). */
export function checkOutputFile(path: string, check: OutputFileCheck): void {
  const name = label(path, check.flag);
  if (path === "") throw new InputError(`${check.flag} is an empty path; give a file name, e.g. ${check.flag} results.json`);
  const overlong = overlongName(path);
  if (overlong !== null) throw new InputError(`${check.flag}: ${fileSystemProblem({ code: "ENAMETOOLONG" }, path)}`);
  if (path.endsWith(sep) || basename(path) === "." || basename(path) === "..") {
    throw new InputError(`${name} names a folder; give a file name inside it, e.g. ${check.flag} ${resolve(path, "results.json")}`);
  }
  const existing = nearestExisting(path);
  if (existing.stats === null) throw new InputError(`${check.flag}: cannot look at ${existing.path}; check the permissions of the folders above it`);
  if (existing.path === resolve(path)) {
    if (existing.stats.isDirectory()) {
      throw new InputError(`${name} is a folder; give a file name inside it, e.g. ${check.flag} ${resolve(path, "results.json")}`);
    }
    const special = specialKind(existing.stats);
    if (special !== null) {
      throw new InputError(`${name} is ${special}, not a regular file: outputs are written to a temporary file and renamed over the target; give a file path`);
    }
  } else if (!existing.stats.isDirectory()) {
    throw new InputError(`${name}: ${existing.path} is a file, not a folder, so ${path} cannot be created inside it`);
  }
  const folder = existing.path === resolve(path) ? dirname(existing.path) : existing.path;
  try {
    accessSync(folder, constants.W_OK | constants.X_OK);
  } catch (error) {
    throw new InputError(`${check.flag}: cannot write in ${folder}: ${fileSystemProblem(error, folder)}`, { cause: error });
  }
  const target = realOrResolved(path);
  for (const input of check.inputs ?? []) {
    const source = realOrResolved(input);
    let isFolder = false;
    try {
      isFolder = statSync(source).isDirectory();
    } catch {
      continue;
    }
    if (source === target) throw new InputError(`${name} is also an input; writing it would destroy the input: choose another file name`);
    if (isFolder && within(target, source)) {
      throw new InputError(`${name} is inside the input folder ${input}, whose files are read as inputs: write it elsewhere`);
    }
  }
}
