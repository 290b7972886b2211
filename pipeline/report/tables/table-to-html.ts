/** A table as an HTML `<table>` (numbers right-aligned and rounded as declared, verdicts coloured by class). */
import { columnHeader, formatCell, type Table } from "./table";

export function tableToHtml(table: Table): string {
  const numeric = table.columns.map((c) => table.rows.length > 0 && table.rows.every((r) => typeof r[c.key] === "number" || r[c.key] == null));
  const head = table.columns.map((c) => `<th>${escapeHtml(columnHeader(c))}</th>`).join("");
  const body = table.rows
    .map((row) => {
      const cells = table.columns.map((c, i) => {
        const classes = [numeric[i] ? "num" : "", c.key === "verdict" ? `verdict ${String(row[c.key]).replace(/\s+/g, "-")}` : ""].filter(Boolean);
        const style = numeric[i] ? ' style="text-align:right"' : "";
        return `<td${classes.length ? ` class="${classes.join(" ")}"` : ""}${style}>${escapeHtml(formatCell(row[c.key], c))}</td>`;
      });
      return `<tr>${cells.join("")}</tr>`;
    })
    .join("\n");
  return `<table><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table>`;
}

/** Text for HTML content and quoted attribute values: `& < > " '` as entities. */
export function escapeHtml(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}
