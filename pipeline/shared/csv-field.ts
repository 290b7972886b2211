/**
 * One CSV field for files people open in spreadsheets (report tables, rejects files):
 * RFC 4180 quoting (a field holding a comma, quote, CR or LF, or spaces at its ends, is
 * quoted, quotes doubled), and text that a spreadsheet would run as a formula — starting
 * with `=`, `+`, `-`, `@`, a tab or a CR (OWASP "CSV injection") — is prefixed with a single
 * quote, which spreadsheets show as text. Numbers are written as numbers, never prefixed.
 */
export function csvField(value: string | number): string {
  if (typeof value === "number") return String(value);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
