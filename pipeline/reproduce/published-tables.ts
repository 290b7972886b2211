/**
 * The papers' tables as transcribed in `data/published/` (its README gives each file's
 * caption, units, printed precision and the misprints found while transcribing), read when
 * the report is built: the reference value of every reproduction row built on them comes
 * from the transcription, never from a number retyped in code.
 *
 * Cells stay strings exactly as printed ("6.00", "2 x 10"); `printedNumber` turns one into
 * the compared number and refuses a cell that is not a plain decimal, naming the file, the
 * line and the column. Reading files happens here, at the edge (`readPublishedTables`); the
 * row builders take the parsed tables.
 */
import { join } from "node:path";
import { InputError, atLine } from "../shared/errors";
import { readCsvRows } from "../shared/read-csv-rows";
import { readInputFile } from "../input/read-input";

/** Where the transcriptions live, relative to the project root. */
export const PUBLISHED_DIR = "data/published";

/** Every transcribed table the reproduction reads: its file, the place in the paper, and the columns it must have. */
export const PUBLISHED_FILES = {
  y11Table1: {
    file: "y11-table-1.csv",
    source: "[Y11] Table 1",
    columns: ["dataset", "peak_bw_mb_per_s_measured", "peak_bw_mb_per_s_estimated", "peak_m_measured", "peak_m_estimated"],
  },
  datasets: { file: "y11-section-6-2-datasets.csv", source: "[Y11] §6.2, [Y-thesis] §4.3.5", columns: ["dataset", "block", "size_mb"] },
  table42: {
    file: "thesis-table-4-2.csv",
    source: "[Y-thesis] Table 4.2",
    columns: ["dataset", "peak_bw_mb_per_s_measured", "peak_bw_mb_per_s_estimated", "peak_m_measured", "peak_m_estimated"],
  },
  table43: {
    file: "thesis-table-4-3.csv",
    source: "[Y-thesis] Table 4.3",
    columns: ["checkpoint_kind", "n_processes", "table_column", "aggregate_size_printed_mb", "process_size_mb", "checkpoint_time_s"],
  },
  table51: { file: "thesis-table-5-1.csv", source: "[Y-thesis] Table 5.1", columns: ["selected_indices", "np", "aggregate_size_mb", "bw_mb_per_s"] },
  example542: { file: "thesis-section-5-4-2-example.csv", source: "[Y-thesis] §5.4.2", columns: ["quantity", "k0", "process_index", "value", "unit"] },
  table52: { file: "thesis-table-5-2.csv", source: "[Y-thesis] Table 5.2", columns: ["process_index", "size_mb", "checkpointed", "checkpoint_time_s"] },
  table53: { file: "thesis-table-5-3.csv", source: "[Y-thesis] Table 5.3", columns: ["process_index", "size_mb", "checkpointed", "checkpoint_time_s"] },
  table71: { file: "thesis-table-7-1.csv", source: "[Y-thesis] Table 7.1", columns: ["app_size_mb", "n_checkpointed", "ctnys_s", "rctnys_s"] },
  table72: { file: "thesis-table-7-2.csv", source: "[Y-thesis] Table 7.2", columns: ["app_size_mb", "n_checkpointed", "ctnys_s", "rctnys_s"] },
  table73: thesisResultTable(3),
  table74: thesisResultTable(4),
  table75: thesisResultTable(5),
  table76: thesisResultTable(6),
  table77: thesisResultTable(7),
  table78: thesisResultTable(8),
  table79: thesisResultTable(9),
  table710: thesisResultTable(10),
} satisfies Record<string, PublishedFileSpec>;

/** [Y-thesis] Tables 7.3–7.10 share one layout: a ScheduleCkpt result per k0. */
function thesisResultTable(k: number): PublishedFileSpec {
  return { file: `thesis-table-7-${k}.csv`, source: `[Y-thesis] Table 7.${k}`, columns: ["criterion", "n", "deadline_T_s", "k0", "ctnys_s", "rctnys_s", "sched_time_us"] };
}

export interface PublishedFileSpec {
  file: string;
  /** Where the table is printed, as docs/science.md names the papers. */
  source: string;
  columns: readonly string[];
}

export type PublishedTableName = keyof typeof PUBLISHED_FILES;

export interface PublishedRow {
  /** 1-based line of the file. */
  line: number;
  /** Every cell by column name, as printed. */
  cells: Readonly<Record<string, string>>;
}

export interface PublishedTable {
  /** `data/published/<file>`: how messages and rows name it. */
  path: string;
  source: string;
  rows: readonly PublishedRow[];
}

export type PublishedTables = Readonly<Record<PublishedTableName, PublishedTable>>;

/** A printed number: its text (whose digits are the printed precision) and its value, as a reproduction row takes them. */
export interface PrintedNumber {
  printed: string;
  paper: number;
}

/** Parse one transcription; `path` names it in messages. Refuses a header without the expected columns and ragged rows (quote a cell that holds a comma). */
export function parsePublishedTable(spec: PublishedFileSpec, text: string, path: string): PublishedTable {
  const [header, ...body] = readCsvRows(text, path, "the transcriptions are plain CSV with a header line");
  if (header === undefined) throw new InputError(`${path}: empty; expected a header with the columns ${spec.columns.join(", ")}`);
  const missing = spec.columns.filter((c) => !header.cells.includes(c));
  if (missing.length > 0) {
    throw new InputError(`${path}: the header lacks the column${missing.length > 1 ? "s" : ""} ${missing.join(", ")} (found ${header.cells.join(", ")}); restore the transcription's header`);
  }
  // csv-parse has already refused a row whose cells do not line up with the header.
  const rows = body.map(({ cells, line }) => ({ line, cells: Object.fromEntries(header.cells.map((name, k) => [name, cells[k]!])) }));
  if (rows.length === 0) throw new InputError(`${path}: no data rows under the header`);
  return { path, source: spec.source, rows };
}

/** Read every file of `PUBLISHED_FILES` from `dir` (a path the process can open). */
export function readPublishedTables(dir: string): PublishedTables {
  const tables = {} as Record<PublishedTableName, PublishedTable>;
  for (const [name, spec] of Object.entries(PUBLISHED_FILES) as [PublishedTableName, PublishedFileSpec][]) {
    const path = `${PUBLISHED_DIR}/${spec.file}`;
    const text = readInputFile(join(dir, spec.file), `the transcription of ${spec.source} (${path})`, "It is part of the repository: restore it from version control");
    tables[name] = parsePublishedTable(spec, text, path);
  }
  return tables;
}

/** A cell as printed; refuses an empty one. */
export function printedText(table: PublishedTable, row: PublishedRow, column: string): string {
  const text = row.cells[column];
  if (text === undefined || text === "") throw new InputError(atLine(table.path, row.line, `column ${column} is empty; the transcription must hold the printed value`));
  return text;
}

/** A cell as a printed decimal number ("6.00", "41957"). */
export function printedNumber(table: PublishedTable, row: PublishedRow, column: string): PrintedNumber {
  const printed = printedText(table, row, column);
  if (!/^-?\d+(\.\d+)?$/.test(printed)) {
    throw new InputError(atLine(table.path, row.line, `column ${column} holds "${printed}", not a number as printed (digits, one "." for decimals)`));
  }
  return { printed, paper: Number(printed) };
}

/** The rows of `table` whose `column` is `value`. */
export function rowsWhere(table: PublishedTable, column: string, value: string): PublishedRow[] {
  return table.rows.filter((r) => r.cells[column] === value);
}

/** The one row of `table` whose `column` is `value`; refuses none or several. */
export function rowWhere(table: PublishedTable, column: string, value: string): PublishedRow {
  const found = rowsWhere(table, column, value);
  if (found.length !== 1) throw new InputError(`${table.path}: expected one row with ${column} = ${value}, found ${found.length}`);
  return found[0]!;
}
