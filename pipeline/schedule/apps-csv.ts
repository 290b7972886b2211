/**
 * The applications CSV of `ckpt schedule --apps`: a header row naming the columns `id`,
 * `p` (seconds of computation not yet saved) and `size_mb` (checkpoint image size, MB),
 * optionally `node` (docs/science.md §4.6: several applications per node are checkpointed by
 * waves). Columns may come in any order; other columns are ignored. Every problem is
 * reported as `file:line: reason` with what was expected.
 */
import { atLine, InputError } from "../shared/errors";
import { readCsvRows } from "../shared/read-csv-rows";
import { validateApplications, type Application } from "./application";

export const APPS_CSV_COLUMNS = ["id", "p", "size_mb"] as const;

function parseNumberCell(text: string, column: string, file: string, line: number): number {
  const value = text.trim() === "" ? NaN : Number(text);
  if (!Number.isFinite(value)) {
    throw new InputError(atLine(file, line, `column ${column} must be a number, found "${text}"`));
  }
  return value;
}

/** Parse the text of an applications CSV (`file` is used in messages only). */
export function parseAppsCsv(text: string, file = "apps.csv"): Application[] {
  const rows = readCsvRows(text, file, 'expected a header "id,p,size_mb" (optionally ",node") and one row per application');
  if (rows.length === 0) {
    throw new InputError(`${file}: empty; expected a header "id,p,size_mb" (optionally ",node") and one row per application`);
  }
  const header = rows[0]!.cells.map((name) => name.toLowerCase());
  const column = (name: string): number => header.indexOf(name);
  for (const name of APPS_CSV_COLUMNS) {
    if (column(name) < 0) {
      throw new InputError(
        atLine(file, rows[0]!.line, `missing column "${name}": the header must name id, p, size_mb (and optionally node), found "${rows[0]!.cells.join(",")}"`),
      );
    }
  }
  const [idColumn, pColumn, sizeColumn, nodeColumn] = [column("id"), column("p"), column("size_mb"), column("node")];
  const lines: number[] = [];
  const apps = rows.slice(1).map(({ cells, line }) => {
    lines.push(line);
    const app: Application = {
      id: cells[idColumn]!,
      pS: parseNumberCell(cells[pColumn]!, "p", file, line),
      sizeMb: parseNumberCell(cells[sizeColumn]!, "size_mb", file, line),
    };
    if (nodeColumn >= 0) app.node = cells[nodeColumn]!;
    return app;
  });
  if (apps.length === 0) throw new InputError(`${file}: has a header but no application rows`);
  validateApplications(apps, (index) => `${file}:${lines[index]}`);
  return apps;
}
