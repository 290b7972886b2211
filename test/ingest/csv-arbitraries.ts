/**
 * fast-check generators of canonical trace CSV text: valid rows, broken rows, quoting,
 * blank lines, CRLF, stray carriage returns and garbage, for the parser property tests.
 */
import fc from "fast-check";

export const HEADER = "run_id,node,m,size_mb,ckpt_mb,start_s,end_s";

/** A valid row of a few runs (so that runs are complete, incomplete, duplicated…). */
const validFields = fc.record({
  runId: fc.constantFrom("r1", "r2", "r3"),
  node: fc.constantFrom("n1", "n2", "n3"),
  m: fc.integer({ min: 1, max: 3 }),
  sizeMb: fc.constantFrom("15", "76", "114.5"),
  ckptMb: fc.constantFrom("15.115", "76.174", "114.6"),
  startS: fc.constantFrom("0", "0.010", "5", "1302012345.120"),
  durationS: fc.constantFrom(1, 2.5, 13.866),
});

const validRow = validFields.map(({ runId, node, m, sizeMb, ckptMb, startS, durationS }) =>
  [runId, node, String(m), sizeMb, ckptMb, startS, String(Number(startS) + durationS)],
);

const garbageText = fc.string({ unit: fc.constantFrom(..."abr1n09.-+eE ,\"\r\n\t"), maxLength: 12 });

/** A row as fields, possibly broken. */
const rowFields = fc.oneof(
  { weight: 6, arbitrary: validRow },
  // one field replaced by garbage
  { weight: 3, arbitrary: fc.tuple(validRow, fc.integer({ min: 0, max: 6 }), garbageText).map(([f, i, g]) => f.map((x, j) => (j === i ? g : x))) },
  // a field dropped or added
  { weight: 1, arbitrary: fc.tuple(validRow, fc.integer({ min: 0, max: 6 })).map(([f, i]) => f.filter((_, j) => j !== i)) },
  { weight: 1, arbitrary: validRow.map((f) => [...f, "extra"]) },
);

/** Quote a field the CSV way (doubling inner quotes). */
const quote = (field: string) => `"${field.replace(/"/g, '""')}"`;

/** One line (or, with a quoted line break, several) of a trace, without its ending. */
export const traceLine = fc.oneof(
  { weight: 10, arbitrary: rowFields.map((f) => f.join(",")) },
  // some fields quoted (the fast path hands these to csv-parse)
  { weight: 2, arbitrary: fc.tuple(rowFields, fc.integer({ min: 0, max: 6 })).map(([f, i]) => f.map((x, j) => (j === i ? quote(x) : x)).join(",")) },
  // a run_id with a comma, a quote or a line break inside quotes
  { weight: 1, arbitrary: fc.tuple(validRow, fc.constantFrom("r,1", 'r"1', "r\n1", "r\r\n1")).map(([f, id]) => [quote(id), ...f.slice(1)].join(",")) },
  // a comment that would be a valid row without its '#', an unclosed quote, a lone CR, garbage, blank lines
  { weight: 1, arbitrary: validRow.map((f) => `#${f.join(",")}`) },
  { weight: 1, arbitrary: validRow.map((f) => `"${f.join(",")}`) },
  { weight: 1, arbitrary: validRow.map((f) => f.join(",").replace(",", "\r,")) },
  { weight: 1, arbitrary: garbageText },
  { weight: 1, arbitrary: fc.constantFrom("", "\r", " ") },
);

/** A whole trace text: header (maybe with a BOM, maybe an extra column whose value varies), lines, LF or CRLF. */
export const traceText = fc
  .record({
    bom: fc.boolean(),
    extraColumn: fc.boolean(),
    lines: fc.array(fc.tuple(traceLine, fc.constantFrom("\n", "\r\n"), fc.constantFrom("azur", "azur", "orsay", "")), { maxLength: 25 }),
    finalNewline: fc.boolean(),
  })
  .map(({ bom, extraColumn, lines, finalNewline }) => {
    const header = extraColumn ? `${HEADER},cluster` : HEADER;
    const body = lines.map(([line, ending, cluster]) => (extraColumn && line.split(",").length === 7 ? `${line},${cluster}` : line) + ending).join("");
    const text = `${bom ? "\uFEFF" : ""}${header}\n${body}`;
    return finalNewline ? text : text.replace(/\r?\n$/, "");
  });
