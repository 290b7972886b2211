/** The transcriptions of data/published/ as the report reads them, and the messages a damaged one gets. */
import { describe, expect, it } from "vitest";
import { PUBLISHED_DIR, PUBLISHED_FILES, parsePublishedTable, printedNumber, readPublishedTables } from "../../pipeline/reproduce/published-tables";

describe("the transcribed tables", () => {
  it("reads every file, keeping each cell as printed", () => {
    const tables = readPublishedTables(PUBLISHED_DIR);
    expect(Object.keys(tables).sort()).toEqual(Object.keys(PUBLISHED_FILES).sort());
    // [Y-thesis] Table 5.1, row 1, column bw(np, S_np): printed "6.00" (two decimals kept).
    const t51 = tables.table51;
    expect(printedNumber(t51, t51.rows[0]!, "bw_mb_per_s")).toEqual({ printed: "6.00", paper: 6 });
    expect(t51).toMatchObject({ path: "data/published/thesis-table-5-1.csv", source: "[Y-thesis] Table 5.1" });
    // [Y-thesis] Table 4.3 has 43 cells, one row each (blank cells of the printed table have none).
    expect(tables.table43.rows).toHaveLength(43);
    // The line of the file travels with the row, for messages: the header is line 1.
    expect(tables.table71.rows[0]!.line).toBe(2);
  });

  const spec = PUBLISHED_FILES.table71;
  const header = "app_size_mb,n_checkpointed,ctnys_s,rctnys_s,note";

  it("refuses a header without the expected columns, naming them", () => {
    expect(() => parsePublishedTable(spec, "app_size_mb,nb,ctnys_s,rctnys_s\n10,50,2525,0\n", "x.csv")).toThrow(/^x\.csv: the header lacks the column n_checkpointed \(found app_size_mb, nb, ctnys_s, rctnys_s\)/);
  });

  it("refuses a row whose cells do not line up with the header, at its line", () => {
    expect(() => parsePublishedTable(spec, `${header}\n10,50,2525,0,\n50,50,2525\n`, "x.csv")).toThrow(/^x\.csv: not readable as CSV \(Invalid Record Length: expect 5, got 3 on line 3\)/);
  });

  it("refuses a cell that is not a printed number, saying where and what", () => {
    const table = parsePublishedTable(spec, `${header}\n10,fifty,2525,0,\n`, "x.csv");
    expect(() => printedNumber(table, table.rows[0]!, "n_checkpointed")).toThrow('x.csv:2: column n_checkpointed holds "fifty", not a number as printed');
    expect(() => parsePublishedTable(spec, `${header}\n`, "x.csv")).toThrow(/no data rows/);
  });

  it("says which file is missing and how to get it back", () => {
    expect(() => readPublishedTables("no/such/dir")).toThrow(/^cannot read the transcription of \[Y11\] Table 1 \(data\/published\/y11-table-1\.csv\) "no\/such\/dir\/y11-table-1\.csv": ENOENT.*restore it from version control/);
  });
});
