/**
 * Execute a notebook headlessly, top to bottom, with the TypeScript (tslab) kernel, and
 * write the executed copy (RECIPES, Notebooks).
 *
 * - The kernel is registered into the project (`.jupyter/`, not the user's home): the same
 *   kernel.json `ckpt notebook install` writes (install-kernel.ts), kept current.
 * - `jupyter nbconvert --execute` reads the notebook (with injected parameters) on stdin
 *   and runs the kernel in `notebooks/`, so `import … from "ckpt-lab"` resolves the
 *   project's built library (see notebooks/node_modules/ckpt-lab); the executed copy comes
 *   back on stdout and is written atomically. Timings are not recorded, so reruns give the
 *   same bytes when the notebook's outputs are deterministic.
 * - With `html`, the executed copy is also exported to HTML by nbconvert, preferring PNG to
 *   SVG: nbconvert 6.x (Debian 12's) passes inline SVG through an HTML cleaner that keeps
 *   only its text, and figures carry both (report/render/notebook-display.ts).
 * - A failing cell (a TypeScript error too) stops the run. nbconvert then reports little,
 *   so the notebook is executed once more with errors allowed: the copy is written anyway
 *   (as `<name>.failed.ipynb`) and the first cell with an error is quoted in the message.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { basename, join } from "node:path";
import { writeFileAtomic } from "../shared/atomic-write";
import { InputError, UsageError } from "../shared/errors";
import { projectRoot } from "../shared/version";
import { KERNEL_NAME, tslabKernelSpec, writeKernelSpec } from "./install-kernel";
import { cellSource, injectParameters, type Notebook } from "./notebook-parameters";

export interface RunNotebookOptions {
  /** Parameter values (see notebook-parameters.ts). */
  parameters?: Record<string, unknown>;
  /** Folder of the executed copy (default `reports/notebooks` under the project). */
  outDir?: string;
  /** Seconds a cell may run (default 600). */
  timeoutSeconds?: number;
  /** Also write `<name>.html` next to the executed copy. */
  html?: boolean;
  log?: (line: string) => void;
}

export interface NotebookRun {
  name: string;
  output: string;
  html?: string;
  seconds: number;
}

export const NOTEBOOKS_DIR = "notebooks";
export const JUPYTER_PREFIX = ".jupyter";

/** The notebooks of the project, by name (file name without .ipynb), sorted. */
export function listNotebooks(root = projectRoot()): string[] {
  const dir = join(root, NOTEBOOKS_DIR);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith(".ipynb") && !f.startsWith("."))
    .map((f) => f.slice(0, -".ipynb".length))
    .sort();
}

/** `04`, `04-reproduce-the-papers` or `04-reproduce-the-papers.ipynb` → the notebook's name. */
export function resolveNotebookName(reference: string, root = projectRoot()): string {
  const names = listNotebooks(root);
  const wanted = reference.replace(/\.ipynb$/, "").replace(/^.*\//, "");
  if (names.includes(wanted)) return wanted;
  const matches = names.filter((n) => n.startsWith(wanted));
  if (matches.length === 1) return matches[0]!;
  throw new UsageError(
    matches.length > 1
      ? `"${reference}" matches several notebooks: ${matches.join(", ")}`
      : `no notebook "${reference}"; the notebooks are ${names.join(", ") || "(none)"}`,
  );
}

/** The tslab kernel spec under `.jupyter/`, written when missing or out of date (another node, a moved project). */
export function ensureKernel(root: string, log: (line: string) => void): string {
  const jupyterPath = join(root, JUPYTER_PREFIX, "share", "jupyter");
  const file = join(jupyterPath, "kernels", KERNEL_NAME, "kernel.json");
  const current = existsSync(file) ? readFileSync(file, "utf8") : "";
  if (current !== `${JSON.stringify(tslabKernelSpec(root), null, 1)}\n`) {
    log(`registering the tslab kernel into ${JUPYTER_PREFIX}/`);
    writeKernelSpec(root, join(jupyterPath, "kernels"));
  }
  return jupyterPath;
}

/**
 * Run a notebook of `notebooks/` (by name or prefix) or any `.ipynb` file (by path; it runs
 * in `notebooks/` all the same, so it can import the library).
 */
export async function runNotebook(reference: string, options: RunNotebookOptions = {}): Promise<NotebookRun> {
  const root = projectRoot();
  const log = options.log ?? (() => {});
  const isPath = reference.endsWith(".ipynb") && existsSync(reference);
  const name = isPath ? basename(reference, ".ipynb") : resolveNotebookName(reference, root);
  const source = isPath ? reference : join(root, NOTEBOOKS_DIR, `${name}.ipynb`);
  const notebook = JSON.parse(readFileSync(source, "utf8")) as Notebook;
  const input = `${JSON.stringify(injectParameters(notebook, options.parameters ?? {}, `${name}.ipynb`), null, 1)}\n`;
  if (!existsSync(join(root, "dist", "pipeline", "index.js"))) {
    throw new InputError(`the library is not built (dist/ is missing), and notebooks import it: run npm run build first`);
  }
  requireJupyter();
  const jupyterPath = ensureKernel(root, log);
  const outDir = options.outDir ?? join(root, "reports", "notebooks");
  const start = performance.now();
  log(`executing ${name}.ipynb with the TypeScript kernel…`);
  const strict = await nbconvert(input, root, jupyterPath, options.timeoutSeconds ?? 600, false);
  const seconds = (performance.now() - start) / 1000;
  const failedCopy = join(outDir, `${name}.failed.ipynb`);
  if (strict.code === 0) {
    const output = join(outDir, `${name}.ipynb`);
    writeFileAtomic(output, strict.stdout);
    rmSync(failedCopy, { force: true });
    if (!options.html) return { name, output, seconds };
    const html = join(outDir, `${name}.html`);
    const exported = await runJupyter(["nbconvert", "--to", "html", "--stdin", "--stdout", ...HTML_PRIORITY], strict.stdout, root, jupyterPath);
    if (exported.code !== 0) throw new InputError(`exporting ${name} to HTML failed: ${lastLines(exported.stderr, 8)}`);
    writeFileAtomic(html, exported.stdout);
    return { name, output, html, seconds };
  }
  log(`a cell failed; executing again with errors allowed to keep the partial notebook…`);
  const partial = await nbconvert(input, root, jupyterPath, options.timeoutSeconds ?? 600, true);
  let detail = lastLines(strict.stderr, 12);
  if (partial.code === 0) {
    writeFileAtomic(failedCopy, partial.stdout);
    detail = firstErrorCell(JSON.parse(partial.stdout) as Notebook) ?? detail;
  }
  throw new InputError(`${name}.ipynb failed:\n${detail}\nThe partially executed copy is ${failedCopy}.`);
}

function requireJupyter(): void {
  const probe = spawnSync("jupyter", ["nbconvert", "--version"], { encoding: "utf8" });
  if (probe.status !== 0) {
    throw new InputError(
      "jupyter nbconvert is not available. On Debian: apt-get install jupyter-nbconvert python3-nbclient python3-ipykernel jupyter-client " +
        "(test/ensure-system-packages.sh does it).",
    );
  }
}

interface ProcessResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** nbconvert's output preference for HTML, with PNG before SVG (see the docblock). */
const HTML_PRIORITY = ["text/html", "image/png", "image/svg+xml", "text/markdown", "text/plain"].map(
  (mime) => `--NbConvertBase.display_data_priority=${mime}`,
);

function nbconvert(input: string, root: string, jupyterPath: string, timeoutSeconds: number, allowErrors: boolean): Promise<ProcessResult> {
  return runJupyter(
    [
      "nbconvert",
      "--to",
      "notebook",
      "--execute",
      "--stdin",
      "--stdout",
      `--ExecutePreprocessor.timeout=${timeoutSeconds}`,
      // The tslab kernel compiles TypeScript as it starts: a minute was not always enough on a busy machine.
      "--ExecutePreprocessor.startup_timeout=300",
      "--ExecutePreprocessor.record_timing=False",
      "--ExecutePreprocessor.kernel_name=tslab",
      ...(allowErrors ? ["--ExecutePreprocessor.allow_errors=True"] : []),
    ],
    input,
    root,
    jupyterPath,
  );
}

function runJupyter(args: string[], input: string, root: string, jupyterPath: string): Promise<ProcessResult> {
  const env = {
    ...process.env,
    JUPYTER_PATH: jupyterPath,
    PYDEVD_DISABLE_FILE_VALIDATION: "1",
    TZ: "UTC",
  };
  return new Promise((resolve, reject) => {
    const child = spawn("jupyter", args, { cwd: join(root, NOTEBOOKS_DIR), env, stdio: ["pipe", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? 1, stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8") }));
    child.stdin.end(input);
  });
}

/** The first code cell with an error or stderr output: its source and the message. */
function firstErrorCell(notebook: Notebook): string | undefined {
  for (const [index, cell] of notebook.cells.entries()) {
    for (const output of (cell.outputs ?? []) as { output_type: string; name?: string; text?: string | string[]; ename?: string; evalue?: string }[]) {
      const isError = output.output_type === "error" || (output.output_type === "stream" && output.name === "stderr");
      if (!isError) continue;
      const text = output.output_type === "error" ? `${output.ename}: ${output.evalue}` : Array.isArray(output.text) ? output.text.join("") : (output.text ?? "");
      return `cell ${index + 1}:\n${indent(cellSource(cell))}\n→ ${firstLines(text, 6)}`;
    }
  }
  return undefined;
}

function indent(text: string): string {
  return text
    .split("\n")
    .map((l) => `    ${l}`)
    .join("\n");
}

function firstLines(text: string, count: number): string {
  return text.trimEnd().split("\n").slice(0, count).join("\n");
}

function lastLines(text: string, count: number): string {
  return text.trimEnd().split("\n").slice(-count).join("\n");
}
