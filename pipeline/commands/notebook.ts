/** `ckpt notebook`: list the notebooks, or execute one headlessly with parameters. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { copyNotebooks, declaredParameters, installKernel, listNotebooks, resolveNotebookName, runNotebook, type Notebook } from "../notebook";
import { defineCommand } from "../command-line/command";
import { UsageError } from "../shared/errors";
import { projectRoot } from "../shared/version";
import { parseParameterAssignments } from "./parameter-assignments";

export const command = defineCommand({
  name: "notebook",
  title: "list the notebooks, run one headlessly with parameters, or register their kernel with your Jupyter",
  usage: [
    "ckpt notebook list [--json]",
    "ckpt notebook run <name> [--param <key>=<value>]… [--out reports/notebooks] [--html] [--timeout 600]",
    "ckpt notebook install [--notebooks <dir>] [--prefix <dir>] [--jupyter <command>]",
  ],
  description: `install registers the TypeScript kernel (tslab) with your Jupyter — JupyterLab, Notebook,
VS Code or nbconvert — for the current user (or under --prefix), whatever python runs it,
and copies the notebooks into --notebooks (default notebooks/ in the current folder; in
the clone that is the project's own, left as it is), with the sample inputs they read by
default under data/ beside it (files already there are kept). Then open them in your
Jupyter, or run one from the folder above them with
  jupyter nbconvert --to html --execute notebooks/01-recalibrate-bandwidth.ipynb

run executes a notebook of notebooks/ top to bottom with the TypeScript (tslab) kernel
through jupyter nbconvert, and writes the executed copy to --out/<name>.ipynb. <name> may
be a prefix (04). --param overrides a parameter of the cell tagged "parameters" (papermill's
convention; the value is read as JSON when it parses, else as a string). list shows each
notebook's parameters and defaults.

Needs: npm run build (notebooks import the built library), and jupyter-nbconvert,
python3-nbclient, python3-ipykernel, jupyter-client (Debian packages). The tslab
kernel is registered into .jupyter/ on first use.`,
  subcommands: ["list", "run", "install"],
  allowPositionals: true,
  options: {
    param: { kind: "assignments", for: ["run"], value: "k=v", help: "a parameter value" },
    out: { kind: "string", for: ["run"], value: "<dir>", default: "reports/notebooks", help: "folder of the executed copy" },
    html: { kind: "flag", for: ["run"], help: "also export the executed copy to --out/<name>.html (charts as PNG)" },
    timeout: { kind: "number", for: ["run"], value: "<s>", default: 600, help: "seconds a cell may run" },
    json: { kind: "flag", for: ["list"], help: "machine-readable output" },
    notebooks: { kind: "string", for: ["install"], value: "<dir>", default: "notebooks", help: "folder to copy the notebooks into (their paths are relative to the folder above it)" },
    prefix: { kind: "string", for: ["install"], value: "<dir>", help: "write the kernel under <dir>/share/jupyter/kernels" },
    jupyter: { kind: "string", for: ["install"], value: "<cmd>", defaultText: "jupyter on PATH", help: "the Jupyter to register with" },
  },
  notes: `Examples:
  ckpt notebook list
  ckpt notebook run 04 --param model=reports/artifacts/model.json`,
  async run({ values, positionals, subcommand, given }, io) {
    const [reference, ...extra] = positionals;
    const root = projectRoot();
    if (subcommand === "list") {
      if (reference !== undefined) throw new UsageError(`"notebook list" takes no argument, got "${reference}"`);
      const notebooks = listNotebooks(root).map((name) => {
        const notebook = JSON.parse(readFileSync(join(root, "notebooks", `${name}.ipynb`), "utf8")) as Notebook;
        return { name, parameters: declaredParameters(notebook).map((p) => ({ name: p.name, default: p.defaultText })) };
      });
      if (values.json) io.stdout(JSON.stringify(notebooks, null, 2));
      else {
        for (const n of notebooks) {
          io.stdout(`${n.name}${n.parameters.length ? `  (${n.parameters.map((p) => `${p.name} = ${p.default}`).join(", ")})` : ""}`);
        }
      }
      return 0;
    }
    if (subcommand === "install") {
      if (reference !== undefined) throw new UsageError(`"notebook install" takes no argument, got "${reference}"`);
      const { prefix, jupyter } = values;
      const installed = installKernel(root, { ...(prefix !== undefined ? { prefix } : {}), ...(jupyter !== undefined ? { jupyter } : {}) });
      io.stdout(`TypeScript kernel "tslab" written to ${installed.folder}`);
      const copied = copyNotebooks(root, values.notebooks);
      if (!copied.copied) io.stdout(`notebooks: ${copied.folder} (the project's own)`);
      else {
        io.stdout(`notebooks copied into ${copied.folder}: ${copied.written.length} files written${copied.kept.length > 0 ? `, ${copied.kept.length} already there kept as they were` : ""}`);
      }
      if (installed.shadowedBy !== undefined) {
        io.stderr(`warning: Jupyter resolves "tslab" to ${installed.shadowedBy} first; remove it (jupyter kernelspec remove tslab) or install without --prefix`);
      } else if (!installed.visible) {
        io.stderr(`note: Jupyter does not look under this prefix; add it to its path: export JUPYTER_PATH=${installed.folder.replace(/\/kernels\/tslab$/, "")}`);
      }
      return 0;
    }
    if (reference === undefined) throw new UsageError(`which notebook? ckpt notebook run <name>; notebooks: ${listNotebooks(root).join(", ")}`);
    if (extra.length > 0) throw new UsageError(`unexpected arguments: ${extra.join(" ")}`);
    const name = resolveNotebookName(reference, root);
    const result = await runNotebook(name, {
      parameters: parseParameterAssignments(values.param, "--param"),
      ...(given.has("out") ? { outDir: values.out } : {}),
      timeoutSeconds: values.timeout,
      html: values.html,
      log: (line) => io.stderr(line),
    });
    io.stdout(`${result.name}: executed in ${result.seconds.toFixed(1)} s → ${result.output}${result.html ? ` (and ${result.html})` : ""}`);
    return 0;
  },
});
