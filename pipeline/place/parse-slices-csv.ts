/**
 * The slices file of `ckpt place --slices`: CSV text with a header line and one row per
 * slice, in order. Columns (by name, in any order; other columns such as a slice label are
 * ignored):
 *
 *     p         slice duration, seconds (> 0)                       required
 *     c         checkpoint cost after the slice, seconds (≥ 0)      } exactly one
 *     size_mb   checkpoint size after the slice, MB = 10^6 B (≥ 0)  } of the two
 *
 * Blank lines and lines starting with `#` are skipped. A bad row is refused with
 * `file:line` (a job with a slice left out would be another job).
 */
import { InputError, atLine } from "../shared/errors";
import { readCsvRows } from "../shared/read-csv-rows";

export interface SlicesTable {
  slicesSeconds: number[];
  /** Present when the file has a `c` column. */
  costsSeconds?: number[];
  /** Present when the file has a `size_mb` column. */
  sizesMb?: number[];
  /** Columns present but not used. */
  ignoredColumns: string[];
}

const FORMAT = "expected a header p,c (seconds) or p,size_mb and one row per slice, e.g.\n  p,c\n  3600,60\n  7200,120";

export function parseSlicesCsv(text: string, file: string): SlicesTable {
  const rows = readCsvRows(text, file, FORMAT);
  if (rows.length === 0) throw new InputError(`${file}: empty, the job has no slices; ${FORMAT}`);
  const header = rows[0]!.cells.map((h) => h.toLowerCase());
  const column = (name: string) => header.indexOf(name);
  const p = column("p");
  const c = column("c");
  const size = column("size_mb");
  const headerLine = rows[0]!.line;
  if (p < 0) throw new InputError(atLine(file, headerLine, `no "p" column in the header (${header.join(",")}); ${FORMAT}`));
  if (c >= 0 && size >= 0) throw new InputError(atLine(file, headerLine, `both "c" and "size_mb" columns; keep one (costs in seconds, or sizes turned into costs by --model)`));
  if (c < 0 && size < 0) throw new InputError(atLine(file, headerLine, `neither a "c" nor a "size_mb" column; ${FORMAT}`));
  const costColumn = c >= 0 ? c : size;
  const costName = c >= 0 ? "c" : "size_mb";
  if (rows.length === 1) throw new InputError(`${file}: a header but no slices; the job needs at least one row`);

  const slicesSeconds: number[] = [];
  const costs: number[] = [];
  for (const { cells, line } of rows.slice(1)) {
    const value = (index: number, name: string, positive: boolean): number => {
      const cell = cells[index] ?? "";
      const parsed = cell === "" ? NaN : Number(cell);
      if (!Number.isFinite(parsed)) throw new InputError(atLine(file, line, `${name} = "${cell}" is not a number`));
      if (positive ? parsed <= 0 : parsed < 0) {
        throw new InputError(atLine(file, line, `${name} = ${parsed}; ${name === "p" ? "slice durations must be > 0 seconds" : `${name} must be ≥ 0`}`));
      }
      return parsed;
    };
    slicesSeconds.push(value(p, "p", true));
    costs.push(value(costColumn, costName, false));
  }
  const ignoredColumns = header.filter((_, i) => i !== p && i !== costColumn);
  return c >= 0 ? { slicesSeconds, costsSeconds: costs, ignoredColumns } : { slicesSeconds, sizesMb: costs, ignoredColumns };
}
