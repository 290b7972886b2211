/**
 * The project's splitter of a quoted line against csv-parse (the reference it replaces on
 * the fast path): the same fields, or both unable to read the line, on random lines.
 */
import { parse } from "csv-parse/sync";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { splitCsvLine } from "../../pipeline/ingest/csv-line";
import { csvParseLineFields } from "../../pipeline/ingest/csv-parse-fields";

const split = (text: string) => {
  const bytes = Buffer.from(text, "utf8");
  return splitCsvLine(bytes, 0, bytes.length);
};

describe("splitCsvLine", () => {
  it.each([
    ['a,"b,c",d', ["a", "b,c", "d"]],
    ['"a""b",c', ['a"b', "c"]],
    ['"",x', ["", "x"]],
    ['a"b,c', ['a"b', "c"]],
    ['"a"b,c', ['"a"b', "c"]],
    ['"a""b"x,c', ['"a"b"x', "c"]],
    ['"a\rb",c', ["a\rb", "c"]],
    ["a,", ["a", ""]],
    ['"é,ü"', ["é,ü"]],
  ])("reads %j as csv-parse does", (line, fields) => {
    expect(split(line)).toEqual(fields);
    expect(parse(line, { relax_quotes: true, relax_column_count: true })).toEqual([fields]);
  });

  it.each(['"a', 'x,"', '"a"",b', '"""'])("cannot read %j: its quote does not close on the line", (line) => {
    expect(split(line)).toBeNull();
  });

  it("agrees with csv-parse on random lines of quotes, commas, CRs and text", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('"', '"', ",", "a", "b", " ", "\r", "é", "#"), minLength: 1, maxLength: 14 }), (line) => {
        const bytes = Buffer.from(line, "utf8");
        expect(splitCsvLine(bytes, 0, bytes.length)).toEqual(csvParseLineFields(bytes, 0, bytes.length));
      }),
      { numRuns: 3000 },
    );
  });
});
