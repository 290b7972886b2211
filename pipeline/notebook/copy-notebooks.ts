/**
 * Put the notebooks where a user works: `ckpt notebook install` from an installed package
 * (`npm install -g ckpt-lab-<version>.tgz`) has no clone to open them in.
 *
 * The notebooks read and write paths relative to the folder above their own (their first
 * cell is `process.chdir("..")`), and import the library and danfojs by package name. So a
 * copy into `<folder>` gets, beside it, what those paths and imports need:
 *
 * - `<folder>/*.ipynb`: the notebooks (an existing file is kept: it may hold the user's edits);
 * - `<folder>/../data/…`: the sample inputs their parameters name by default (the shipped
 *   files, copied when missing), so each runs as it is before the user points it at theirs;
 * - `<folder>/node_modules/ckpt-lab` and `…/danfojs`: links to the installed packages,
 *   which Node and tslab's TypeScript both follow from the notebook's folder.
 *
 * Copying onto the project's own `notebooks/` (in the clone) does nothing.
 */
import { copyFileSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, realpathSync, symlinkSync, unlinkSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { InputError } from "../shared/errors";
import { declaredParameters, type Notebook } from "./notebook-parameters";

/** The packages the notebooks import besides the library itself. */
const NOTEBOOK_PACKAGES = ["danfojs"];

export interface CopiedNotebooks {
  folder: string;
  /** False when `folder` is the project's own notebooks/ (nothing to copy). */
  copied: boolean;
  written: string[];
  /** Files already there, left as they were. */
  kept: string[];
}

export function copyNotebooks(root: string, folder: string): CopiedNotebooks {
  const source = join(root, "notebooks");
  const target = resolve(folder);
  if (existsSync(target) && realpathSync(target) === realpathSync(source)) return { folder: target, copied: false, written: [], kept: [] };
  const written: string[] = [];
  const kept: string[] = [];
  const copy = (from: string, to: string) => {
    if (existsSync(to)) {
      kept.push(to);
      return;
    }
    mkdirSync(dirname(to), { recursive: true });
    copyFileSync(from, to);
    written.push(to);
  };
  const workFolder = dirname(target);
  for (const name of readdirSync(source).filter((f) => f.endsWith(".ipynb")).sort()) {
    copy(join(source, name), join(target, name));
    for (const input of sampleInputs(JSON.parse(readFileSync(join(source, name), "utf8")) as Notebook)) {
      if (existsSync(join(root, input))) copy(join(root, input), join(workFolder, input));
    }
  }
  link(root, join(target, "node_modules", "ckpt-lab"));
  for (const name of NOTEBOOK_PACKAGES) link(packageFolder(root, name), join(target, "node_modules", name));
  return { folder: target, copied: true, written, kept };
}

/** The shipped files a notebook's parameters name by default (`"data/…"` strings). */
function sampleInputs(notebook: Notebook): string[] {
  return declaredParameters(notebook).flatMap((p) => {
    const match = /^"(data\/[^"]+)"$/.exec(p.defaultText);
    return match ? [match[1]!] : [];
  });
}

function packageFolder(root: string, name: string): string {
  try {
    return dirname(require.resolve(`${name}/package.json`, { paths: [root] }));
  } catch (error) {
    throw new InputError(`the notebooks import ${name}, which is not installed next to ckpt-lab (${root}): reinstall ckpt-lab`, { cause: error });
  }
}

/** A symbolic link `at` → `to` (absolute: the copy may move, the installed package stays), replacing a link that points elsewhere; a file or folder there is refused. */
function link(to: string, at: string): void {
  const existing = lstatSync(at, { throwIfNoEntry: false });
  if (existing !== undefined && !existing.isSymbolicLink()) {
    throw new InputError(`${at} exists and is not a link; remove it, so that the notebooks beside it import the installed ${basename(to)}`);
  }
  if (existing !== undefined && readlinkSync(at) === to) return;
  if (existing !== undefined) unlinkSync(at);
  mkdirSync(dirname(at), { recursive: true });
  symlinkSync(to, at);
}
