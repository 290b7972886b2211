/**
 * Register the TypeScript (tslab) kernel with whichever Jupyter the user has.
 *
 * `tslab install` runs a Python script that imports jupyter_client from the `python3` first
 * on PATH; with a pyenv or venv python that has no Jupyter it fails ("jupyter is not
 * installed in this Python") although a working Jupyter is on PATH. A kernel spec is only
 * a folder with a kernel.json, so we write it ourselves where that Jupyter looks
 * (`jupyter --data-dir`, or `--prefix`), with absolute paths to this node and this
 * project's tslab: the kernel then starts without tslab on PATH and whatever python runs
 * Jupyter.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import { writeFileAtomic } from "../shared/atomic-write";
import { InputError } from "../shared/errors";

/** The kernel name the notebooks' metadata names (tslab's own). */
export const KERNEL_NAME = "tslab";

export interface KernelSpec {
  argv: string[];
  display_name: string;
  language: string;
}

export function tslabKernelSpec(root: string): KernelSpec {
  // Resolved as Node would from the project: in a clone it is ./node_modules, an installed package may have it hoisted.
  let tslab: string;
  try {
    tslab = join(dirname(require.resolve("tslab/package.json", { paths: [root] })), "bin", "tslab");
  } catch {
    throw new InputError(`tslab is not installed next to ckpt-lab (${root}): run npm ci in the clone, or reinstall the package`);
  }
  return { argv: [process.execPath, tslab, "kernel", "--config-path", "{connection_file}"], display_name: "TypeScript", language: "typescript" };
}

/** Write the kernel spec into `<kernelsDir>/tslab/kernel.json` (atomically); returns its folder. */
export function writeKernelSpec(root: string, kernelsDir: string): string {
  const folder = join(kernelsDir, KERNEL_NAME);
  mkdirSync(folder, { recursive: true });
  writeFileAtomic(join(folder, "kernel.json"), `${JSON.stringify(tslabKernelSpec(root), null, 1)}\n`);
  return folder;
}

export interface InstallKernelOptions {
  /** Install under `<prefix>/share/jupyter/kernels` instead of the user's data directory. */
  prefix?: string;
  /** The Jupyter command (default `jupyter` on PATH). */
  jupyter?: string;
  env?: NodeJS.ProcessEnv;
}

export interface InstalledKernel {
  folder: string;
  /** Whether `jupyter kernelspec list` finds this spec under the name tslab (a --prefix outside Jupyter's path is not found). */
  visible: boolean;
  /** The spec Jupyter resolves for tslab when it is another one (an older install earlier in its path). */
  shadowedBy?: string;
}

export function installKernel(root: string, options: InstallKernelOptions = {}): InstalledKernel {
  const jupyter = options.jupyter ?? "jupyter";
  const env = options.env ?? process.env;
  const run = (args: string[]) => spawnSync(jupyter, args, { encoding: "utf8", env });
  const probe = run(["--data-dir"]);
  if (probe.error !== undefined || probe.status !== 0) {
    throw new InputError(
      `no Jupyter found (${jupyter} ${probe.error ? `could not start: ${probe.error.message}` : `--data-dir exited ${probe.status}`}). ` +
        `Install one — pip install jupyterlab, or on Debian apt-get install jupyter-notebook jupyter-nbconvert python3-ipykernel — ` +
        `or name it with --jupyter /path/to/jupyter.`,
    );
  }
  const kernelsDir = options.prefix !== undefined ? join(options.prefix, "share", "jupyter", "kernels") : join(probe.stdout.trim(), "kernels");
  const folder = writeKernelSpec(root, kernelsDir);
  const listed = run(["kernelspec", "list", "--json"]);
  let resolved: string | undefined;
  try {
    resolved = (JSON.parse(listed.stdout) as { kernelspecs: Record<string, { resource_dir: string }> }).kernelspecs[KERNEL_NAME]?.resource_dir;
  } catch {
    resolved = undefined;
  }
  const real = (path: string) => (existsSync(path) ? realpathSync(path) : path);
  const visible = resolved !== undefined && real(resolved) === real(folder);
  return { folder, visible, ...(resolved !== undefined && !visible ? { shadowedBy: resolved } : {}) };
}
