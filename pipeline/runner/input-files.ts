/**
 * Content hashes of the external files a stage reads (traces…). A directory (the
 * host-logs layout) is hashed file by file, in sorted order, so adding, removing or
 * editing any file under it counts as a change; only the content matters, not the
 * modification time.
 */
import { readdirSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { InputError } from "../shared/errors";
import { sha256OfFile } from "../shared/hash";

export interface HashedFile {
  /** As given (a file), or `<dir>/<relative path>` for the files under a directory. */
  path: string;
  sha256: string;
}

export function hashInputFiles(paths: string[], sha256Of: (file: string) => string = sha256OfFile): HashedFile[] {
  const out: HashedFile[] = [];
  for (const path of paths) {
    let stats;
    try {
      stats = statSync(path);
    } catch (error) {
      throw new InputError(`input "${path}" does not exist; give existing trace files or directories with --traces`, { cause: error });
    }
    if (stats.isDirectory()) {
      for (const file of walk(path)) out.push({ path: `${path.replace(/\/+$/, "")}/${relative(path, file).split(sep).join("/")}`, sha256: sha256Of(file) });
    } else {
      out.push({ path, sha256: sha256Of(path) });
    }
  }
  return out;
}

function walk(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...walk(path));
    else if (entry.isFile()) files.push(path);
  }
  return files;
}
