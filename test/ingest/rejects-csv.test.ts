import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { REJECTS_CSV_HEADER, csvField, rejectToCsvLine } from "../../pipeline/ingest/rejects-csv";
import type { RejectedRow } from "../../pipeline/ingest/ingest-files";

describe("the rejects file", () => {
  it("quotes only what needs it", () => {
    expect(csvField("plain")).toBe("plain");
    expect(csvField(12)).toBe("12");
    expect(csvField('a "b", c')).toBe('"a ""b"", c"');
    expect(csvField(" padded")).toBe('" padded"');
  });

  it("reads back with csv-parse as written, commas, quotes and line breaks included", () => {
    const rejects: RejectedRow[] = [
      { file: "t.csv", line: 3, code: "non-numeric", reason: 'end_s must be a finite decimal number, found "x"', raw: "r,n1,1,76,76,0,x" },
      { file: "run/h/events.log", line: 7, code: "duplicate-process", reason: "duplicate", raw: "1 ckpt_start pid=2\n2 ckpt_end pid=2" },
      { file: "odd, name.csv", line: 9, code: "malformed-csv", reason: "r", raw: '"unclosed,\r' },
    ];
    const text = [REJECTS_CSV_HEADER, ...rejects.map(rejectToCsvLine)].join("\n") + "\n";
    const back = parse(text, { columns: true }) as Record<string, string>[];
    expect(back.map((r) => ({ file: r.file, line: Number(r.line), code: r.code, reason: r.reason, raw: r.raw }))).toEqual(rejects);
  });
});
