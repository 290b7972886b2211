/**
 * The applications CSV of `ckpt schedule --apps`: a header row naming the columns `id`,
 * `p` (seconds of computation not yet saved) and `size_mb` (checkpoint image size, MB),
 * optionally `node` (SPEC §4.6: several applications per node are checkpointed by
 * waves). Columns may come in any order; other columns are ignored. Every problem is
 * reported as `file:line: reason` with what was expected.
 */
import { parse } from "csv-parse/sync";
import { atLine, InputError } from "../shared/errors";
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
  let rows: { record: string[]; info: { lines: number } }[];
  try {
    rows = parse(text, { info: true, trim: true, skip_empty_lines: true, comment: "#" }) as unknown as typeof rows;
  } catch (error) {
    throw new InputError(`${file}: not a readable CSV (${(error as Error).message})`, { cause: error });
  }
  if (rows.length === 0) {
    throw new InputError(`${file}: empty; expected a header "id,p,size_mb" (optionally ",node") and one row per application`);
  }
  const header = rows[0]!.record.map((name) => name.toLowerCase());
  const column = (name: string): number => header.indexOf(name);
  for (const name of APPS_CSV_COLUMNS) {
    if (column(name) < 0) {
      throw new InputError(
        atLine(file, rows[0]!.info.lines, `missing column "${name}": the header must name id, p, size_mb (and optionally node), found "${rows[0]!.record.join(",")}"`),
      );
    }
  }
  const [idColumn, pColumn, sizeColumn, nodeColumn] = [column("id"), column("p"), column("size_mb"), column("node")];
  const lines: number[] = [];
  const apps = rows.slice(1).map(({ record, info }) => {
    lines.push(info.lines);
    const app: Application = {
      id: record[idColumn]!,
      pS: parseNumberCell(record[pColumn]!, "p", file, info.lines),
      sizeMb: parseNumberCell(record[sizeColumn]!, "size_mb", file, info.lines),
    };
    if (nodeColumn >= 0) app.node = record[nodeColumn]!;
    return app;
  });
  if (apps.length === 0) throw new InputError(`${file}: has a header but no application rows`);
  validateApplications(apps, (index) => `${file}:${lines[index]}`);
  return apps;
}
