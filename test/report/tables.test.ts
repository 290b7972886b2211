import { describe, expect, it } from "vitest";
import { formatCell, type Table } from "../../pipeline/report/tables/table";
import { tableToCsv } from "../../pipeline/report/tables/table-to-csv";
import { escapeLatex, tableToLatex } from "../../pipeline/report/tables/table-to-latex";
import { tableToHtml } from "../../pipeline/report/tables/table-to-html";

const table: Table = {
  id: "t",
  title: "Peaks & 100 % of σ_i",
  caption: "c",
  columns: [
    { key: "name", label: "series" },
    { key: "bw", label: "bandwidth", unit: "MB/s", decimals: 2 },
  ],
  rows: [
    { name: 'D1, "first"', bw: 31.204 },
    { name: "D2", bw: null },
    { name: "D3", bw: -0.5 },
  ],
};

describe("tables", () => {
  it("writes RFC 4180 CSV at full precision with units in the header", () => {
    expect(tableToCsv(table)).toBe('series,bandwidth (MB/s)\n"D1, ""first""",31.204\nD2,\nD3,-0.5\n');
  });

  it("writes a booktabs tabular with escaped text, math symbols and right-aligned rounded numbers", () => {
    const tex = tableToLatex(table);
    expect(tex).toContain("\\begin{tabular}{lr}");
    expect(tex).toContain("series & bandwidth (MB/s) \\\\");
    expect(tex).toContain("D1, \"first\" & 31.20 \\\\");
    expect(tex).toContain("D2 & --- \\\\");
    expect(tex).toContain("D3 & $-$0.50 \\\\");
    expect(tex).toContain("\\bottomrule");
    expect(escapeLatex("a_b & 5 % σ ≤ ī {x} ~ \\")).toBe("a\\_b \\& 5 \\% $\\sigma$ $\\leq$ $\\bar{\\imath}$ \\{x\\} \\textasciitilde{} \\textbackslash{}");
  });

  it("formats cells for people: declared decimals, a true minus sign, a dash when missing", () => {
    expect(formatCell(1.005, { key: "x", label: "x", decimals: 1 })).toBe("1.0");
    expect(formatCell(-2, { key: "x", label: "x" })).toBe("−2");
    expect(formatCell(null, { key: "x", label: "x" })).toBe("—");
    expect(formatCell(Infinity, { key: "x", label: "x" })).toBe("∞");
  });

  it("escapes HTML and aligns numbers right", () => {
    const html = tableToHtml({ ...table, rows: [{ name: "<b>", bw: 1 }] });
    expect(html).toContain("&lt;b&gt;");
    expect(html).toContain('<td class="num" style="text-align:right">1.00</td>');
  });
});
