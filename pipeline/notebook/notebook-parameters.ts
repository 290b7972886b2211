/**
 * Parameters of a notebook, papermill's convention for TypeScript notebooks: the cell
 * tagged `parameters` declares each parameter with `let name = <default>;`, and running
 * with other values inserts, right after it, a cell tagged `injected-parameters` that
 * assigns them (`name = <value>;`). The notebook itself stays as written, and the
 * executed copy shows which values it ran with.
 *
 * `let` (not `const`) is required so the injected cell can assign. A value must have the
 * type of the default (number, string, boolean, or JSON array/object).
 */
import { UsageError } from "../shared/errors";

export interface NotebookCell {
  cell_type: "code" | "markdown" | "raw";
  id?: string;
  metadata: { tags?: string[]; [key: string]: unknown };
  source: string | string[];
  outputs?: unknown[];
  execution_count?: number | null;
}

export interface Notebook {
  cells: NotebookCell[];
  metadata: Record<string, unknown>;
  nbformat: number;
  nbformat_minor: number;
}

export interface DeclaredParameter {
  name: string;
  /** The default as written in the cell. */
  defaultText: string;
  /** The default's JSON type when it is a JSON literal ("number", "string", "boolean", "object"), else null. */
  type: string | null;
}

const DECLARATION = /^\s*(let|const|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=]+)?=\s*(.+?);?\s*(?:\/\/.*)?$/;

export function cellSource(cell: NotebookCell): string {
  return Array.isArray(cell.source) ? cell.source.join("") : cell.source;
}

/** The index of the cell tagged `parameters`, or -1. */
export function parametersCellIndex(notebook: Notebook): number {
  return notebook.cells.findIndex((c) => c.cell_type === "code" && (c.metadata.tags ?? []).includes("parameters"));
}

export function declaredParameters(notebook: Notebook): DeclaredParameter[] {
  const index = parametersCellIndex(notebook);
  if (index < 0) return [];
  const out: DeclaredParameter[] = [];
  for (const line of cellSource(notebook.cells[index]!).split("\n")) {
    const match = DECLARATION.exec(line);
    if (!match) continue;
    const [, keyword, name, defaultText] = match;
    if (keyword !== "let") {
      throw new UsageError(`the parameters cell declares "${name}" with ${keyword}; declare parameters with let so they can be overridden`);
    }
    out.push({ name: name!, defaultText: defaultText!.trim(), type: jsonType(defaultText!.trim()) });
  }
  return out;
}

/** A copy of `notebook` with the values assigned in a new cell after the parameters cell. */
export function injectParameters(notebook: Notebook, values: Record<string, unknown>, notebookName: string): Notebook {
  const names = Object.keys(values);
  if (names.length === 0) return notebook;
  const index = parametersCellIndex(notebook);
  if (index < 0) {
    throw new UsageError(`${notebookName} has no cell tagged "parameters", so it takes no --param; add the tag to the cell that declares its parameters`);
  }
  const declared = new Map(declaredParameters(notebook).map((p) => [p.name, p]));
  const lines = ["// Injected by `ckpt notebook run` (papermill's convention): these values override the defaults above."];
  for (const name of names) {
    const parameter = declared.get(name);
    if (parameter === undefined) {
      throw new UsageError(`${notebookName} has no parameter "${name}"; its parameters are ${[...declared.keys()].join(", ") || "(none)"}`);
    }
    const value = values[name];
    const type = value === null ? "null" : typeof value;
    if (parameter.type !== null && parameter.type !== type) {
      throw new UsageError(`parameter "${name}" of ${notebookName} is a ${parameter.type} (default ${parameter.defaultText}); got ${JSON.stringify(value)}`);
    }
    lines.push(`${name} = ${JSON.stringify(value)};`);
  }
  const injected: NotebookCell = {
    cell_type: "code",
    id: "injected-parameters",
    metadata: { tags: ["injected-parameters"] },
    source: lines.map((line, i) => (i < lines.length - 1 ? `${line}\n` : line)),
    outputs: [],
    execution_count: null,
  };
  const cells = notebook.cells.filter((c) => !(c.metadata.tags ?? []).includes("injected-parameters"));
  const at = cells.findIndex((c) => (c.metadata.tags ?? []).includes("parameters"));
  return { ...notebook, cells: [...cells.slice(0, at + 1), injected, ...cells.slice(at + 1)] };
}

function jsonType(text: string): string | null {
  try {
    const value: unknown = JSON.parse(text);
    return value === null ? "null" : typeof value;
  } catch {
    return null;
  }
}
