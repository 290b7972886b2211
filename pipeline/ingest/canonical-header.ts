/**
 * The header line of a canonical trace CSV: where each required column is, and which
 * extra columns the file carries.
 *
 * The seven columns of `CANONICAL_COLUMNS` must all be present, in any order, each once;
 * any other column is an extra (e.g. `cluster`, `site`, `app`, `repetition`), kept as a
 * run attribute. A header that does not fit is a wrong shape for the whole file, so it is
 * an `InputError`, not a rejected row. Names are compared after trimming spaces, exactly
 * otherwise (lower case, as listed).
 */
import { InputError, atLine } from "../shared/errors";
import { CANONICAL_COLUMNS } from "./observations";

export interface CanonicalLayout {
  /** Number of fields every row must have. */
  fieldCount: number;
  runId: number;
  node: number;
  m: number;
  sizeMb: number;
  ckptMb: number;
  startS: number;
  endS: number;
  /** Field indices of the extra columns, and their names. */
  extraIndices: number[];
  extraNames: string[];
}

/** What the header's one field says about the file's separator, and what to do. */
function separatorHint(names: readonly string[], file: string): string {
  const text = names.join(",");
  if (text.includes("\t")) return `Its columns are separated by tabs: convert the file, e.g. tr '\\t' ',' < '${file}' > trace.csv`;
  if (names.length === 1 && text.includes(";")) {
    return "Its columns are separated by ';' (as a spreadsheet in a decimal-comma locale saves CSV): read it with --delimiter ';' (and --decimal-comma if numbers are written 6,5)";
  }
  return "Is the first line the header, and is the file comma-separated?";
}

export function parseCanonicalHeader(fields: readonly string[], file: string, line: number): CanonicalLayout {
  const names = fields.map((f) => f.trim());
  const expected = `expected a header with the columns ${CANONICAL_COLUMNS.join(",")} (any order, extra columns allowed)`;
  const empty = names.indexOf("");
  if (empty >= 0) {
    throw new InputError(
      atLine(file, line, `header column ${empty + 1} has no name (${expected}); remove the stray comma or name the column`),
    );
  }
  const seen = new Set<string>();
  for (const name of names) {
    if (seen.has(name)) throw new InputError(atLine(file, line, `header names column "${name}" twice; column names must be unique`));
    seen.add(name);
  }
  const missing = CANONICAL_COLUMNS.filter((c) => !seen.has(c));
  if (missing.length > 0) {
    const found = names.length > 12 ? `${names.slice(0, 12).join(",")},…` : names.join(",");
    throw new InputError(atLine(file, line, `${expected}; missing ${missing.join(", ")}; found "${found}". ${separatorHint(names, file)}`));
  }
  const index = (column: string) => names.indexOf(column);
  const required = new Set<string>(CANONICAL_COLUMNS);
  const extraIndices: number[] = [];
  names.forEach((name, i) => {
    if (!required.has(name)) extraIndices.push(i);
  });
  return {
    fieldCount: names.length,
    runId: index("run_id"),
    node: index("node"),
    m: index("m"),
    sizeMb: index("size_mb"),
    ckptMb: index("ckpt_mb"),
    startS: index("start_s"),
    endS: index("end_s"),
    extraIndices,
    extraNames: extraIndices.map((i) => names[i]!),
  };
}
