/**
 * A table as LaTeX for papers, ready to `\input` (booktabs rules):
 *
 * - a `tabular` when its cells are short; a `tabularx` to the line width when a text column
 *   holds sentences (those columns wrap, ragged right); a `longtable` with wrapped columns
 *   when it has more rows than a page holds (the reproduction table), carrying its own
 *   caption since a longtable cannot sit in a table float;
 * - numbers right-aligned and rounded to the column's decimals; the header of a number
 *   column broken into lines when it is much wider than its numbers;
 * - the output is ASCII: LaTeX's specials are escaped (`[` and `]` too, braced, so that a
 *   row starting with "[Y11]" right after `\\` is not read as `\\[<length>]`, and `*`, so
 *   that it is not read as `\\*`), and every other character is spelt in LaTeX — the
 *   symbols our labels use in math mode, accented letters as accent commands — so the file
 *   compiles with pdfLaTeX, LuaLaTeX and XeLaTeX with no input encoding; a character with no
 *   spelling is written as its code point, never dropped silently;
 * - its first line is a comment naming the packages it needs (`latexPackages`).
 */
import { columnHeader, formatCell, type Table } from "./table";

const SPECIALS: Record<string, string> = {
  "\\": "\\textbackslash{}",
  "&": "\\&",
  "%": "\\%",
  $: "\\$",
  "#": "\\#",
  _: "\\_",
  "{": "\\{",
  "}": "\\}",
  "~": "\\textasciitilde{}",
  "^": "\\textasciicircum{}",
  "<": "\\textless{}",
  ">": "\\textgreater{}",
  "|": "\\textbar{}",
  "[": "{[}",
  "]": "{]}",
  "*": "{*}",
};

const SYMBOLS: Record<string, string> = {
  "σ": "$\\sigma$",
  "Σ": "$\\Sigma$",
  "µ": "$\\mu$",
  "μ": "$\\mu$",
  "λ": "$\\lambda$",
  "α": "$\\alpha$",
  "β": "$\\beta$",
  "γ": "$\\gamma$",
  "δ": "$\\delta$",
  "Δ": "$\\Delta$",
  "ε": "$\\varepsilon$",
  "η": "$\\eta$",
  "θ": "$\\theta$",
  "κ": "$\\kappa$",
  "ν": "$\\nu$",
  "π": "$\\pi$",
  "ρ": "$\\rho$",
  "τ": "$\\tau$",
  "φ": "$\\phi$",
  "χ": "$\\chi$",
  "ψ": "$\\psi$",
  "ω": "$\\omega$",
  "Ω": "$\\Omega$",
  "≈": "$\\approx$",
  "≤": "$\\leq$",
  "≥": "$\\geq$",
  "≠": "$\\neq$",
  "±": "$\\pm$",
  "×": "$\\times$",
  "÷": "$\\div$",
  "→": "$\\rightarrow$",
  "←": "$\\leftarrow$",
  "↦": "$\\mapsto$",
  "⇒": "$\\Rightarrow$",
  "−": "$-$",
  "∞": "$\\infty$",
  "ī": "$\\bar{\\imath}$",
  "²": "$^2$",
  "³": "$^3$",
  "½": "$\\frac{1}{2}$",
  "·": "$\\cdot$",
  "∈": "$\\in$",
  "∉": "$\\notin$",
  "∅": "$\\emptyset$",
  "√": "$\\surd$",
  "∑": "$\\sum$",
  "°": "$^\\circ$",
  "′": "$'$",
  "—": "---",
  "–": "--",
  "…": "\\ldots{}",
  "“": "``",
  "”": "''",
  "‘": "`",
  "’": "'",
  "«": "<<",
  "»": ">>",
  "§": "\\S{}",
  "¶": "\\P{}",
  "©": "\\copyright{}",
  "•": "$\\bullet$",
  "\u00a0": "~",
  "\u202f": "\\,",
  "ß": "{\\ss}",
  "æ": "{\\ae}",
  "Æ": "{\\AE}",
  "ø": "{\\o}",
  "Ø": "{\\O}",
  "å": "{\\aa}",
  "Å": "{\\AA}",
  "œ": "{\\oe}",
  "Œ": "{\\OE}",
  "ł": "{\\l}",
  "Ł": "{\\L}",
  "ı": "{\\i}",
};

/** Combining marks (after NFD) and the LaTeX accent that writes them. */
const ACCENTS: Record<string, string> = {
  "\u0300": "`",
  "\u0301": "'",
  "\u0302": "^",
  "\u0303": "~",
  "\u0304": "=",
  "\u0306": "u",
  "\u0307": ".",
  "\u0308": '"',
  "\u030a": "r",
  "\u030b": "H",
  "\u030c": "v",
  "\u0327": "c",
  "\u0328": "k",
};

/** Text for a LaTeX document, in ASCII: specials escaped, symbols spelt, control characters (which no TeX reads) dropped. */
export function escapeLatex(text: string): string {
  let out = "";
  for (const ch of text) {
    if (/[\u0000-\u001f\u007f]/.test(ch)) continue;
    const known = SPECIALS[ch] ?? SYMBOLS[ch];
    if (known !== undefined) out += known;
    else if (ch.charCodeAt(0) < 0x80) out += ch;
    else out += accented(ch) ?? `\\texttt{U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}}`;
  }
  return out;
}

/** "é" → "\'{e}": a Latin letter with one accent LaTeX has a command for. */
function accented(ch: string): string | undefined {
  const [base, mark, ...rest] = [...ch.normalize("NFD")];
  if (base === undefined || mark === undefined || rest.length > 0 || !/^[A-Za-z]$/.test(base) || ACCENTS[mark] === undefined) return undefined;
  return `\\${ACCENTS[mark]}{${base === "i" ? "\\i" : base}}`;
}

/** Rows beyond which a table is set as a longtable, across pages. */
const LONG_TABLE_ROWS = 40;
/** A text column whose cells run longer than this many characters wraps. */
const WRAP_CHARACTERS = 32;
/** A number column's header wider than its numbers by more than this breaks into lines… */
const HEADER_SLACK_CHARACTERS = 4;
/** …when the table, its headers on one line, is wider than this many characters (about a 7 in line in \small). */
const WIDE_TABLE_CHARACTERS = 100;

type Layout = "tabular" | "tabularx" | "longtable";

/** The packages a table's LaTeX needs: booktabs always, array, tabularx or longtable as its layout asks. */
export function latexPackages(table: Table): string[] {
  const layout = layoutOf(table).layout;
  return ["booktabs", ...(layout === "tabular" ? [] : ["array"]), ...(layout === "tabularx" ? ["tabularx"] : []), ...(layout === "longtable" ? ["longtable"] : [])];
}

/** Whether the table is set as a longtable (with its own caption: it cannot be put in a table float). */
export function isLongTable(table: Table): boolean {
  return layoutOf(table).layout === "longtable";
}

function layoutOf(table: Table) {
  const numeric = table.columns.map((c) => table.rows.length > 0 && table.rows.every((r) => typeof r[c.key] === "number" || r[c.key] == null));
  const cells = table.columns.map((c) => table.rows.map((r) => formatCell(r[c.key], c)));
  const longest = cells.map((column) => Math.max(0, ...column.map((cell) => [...cell].length)));
  const wraps = table.columns.map((_, i) => !numeric[i] && longest[i]! > WRAP_CHARACTERS);
  const layout: Layout = table.rows.length > LONG_TABLE_ROWS ? "longtable" : wraps.some(Boolean) ? "tabularx" : "tabular";
  return { numeric, longest, wraps, layout };
}

export function tableToLatex(table: Table): string {
  const { numeric, longest, wraps, layout } = layoutOf(table);
  const ragged = (column: string) => `>{\\raggedright\\arraybackslash}${column}`;
  // A longtable's wrapped columns share what the others leave of the line, in proportion
  // to their longest cell (estimated at half an em a character for the others).
  const fixedEm = table.columns.reduce((sum, c, i) => (wraps[i] ? sum : sum + 0.5 * Math.max(longest[i]!, headerLines(table, i, numeric[i]!).width) + 1.5), 0);
  const wrappedWeight = wraps.reduce((sum, w, i) => (w ? sum + Math.sqrt(longest[i]!) : sum), 0);
  const share = (i: number) => Math.max(0.08, (1 - fixedEm / 52) * (Math.sqrt(longest[i]!) / wrappedWeight));
  const spec = table.columns
    .map((_, i) => {
      if (numeric[i]) return "r";
      if (!wraps[i]) return "l";
      return layout === "longtable" ? ragged(`p{\\dimexpr ${share(i).toFixed(3)}\\linewidth-2\\tabcolsep\\relax}`) : ragged("X");
    })
    .join("");
  const row = (cells: string[]) => `  ${cells.join(" & ")} \\\\`;
  const header = row(table.columns.map((_, i) => headerCell(table, i, numeric[i]!)));
  const body = table.rows.map((r) => row(table.columns.map((c) => escapeLatex(formatCell(r[c.key], c)))));
  const comment = `% ${asciiComment(table.title)}. Generated by ckpt-lab; needs ${latexPackages(table).map((p) => `\\usepackage{${p}}`).join(" ")}`;
  if (layout === "longtable") {
    return [
      comment,
      `\\begin{longtable}{${spec}}`,
      `  \\caption{${escapeLatex(table.title)}}\\label{tab:${table.id}} \\\\`,
      "  \\toprule",
      header,
      "  \\midrule",
      "  \\endfirsthead",
      "  \\toprule",
      header,
      "  \\midrule",
      "  \\endhead",
      "  \\bottomrule",
      "  \\endlastfoot",
      ...body,
      "\\end{longtable}",
      "",
    ].join("\n");
  }
  const [open, close] = layout === "tabularx" ? [`\\begin{tabularx}{\\linewidth}{${spec}}`, "\\end{tabularx}"] : [`\\begin{tabular}{${spec}}`, "\\end{tabular}"];
  return [comment, open, "  \\toprule", header, "  \\midrule", ...body, "  \\bottomrule", close, ""].join("\n");
}

/** A number column's header in lines about as wide as its numbers (a nested tabular needs no package). */
function headerLines(table: Table, i: number, numeric: boolean): { lines: string[]; width: number } {
  const text = columnHeader(table.columns[i]!);
  const values = valueWidth(table, i);
  const wide = table.columns.reduce((sum, column, j) => sum + Math.max([...columnHeader(column)].length, valueWidth(table, j)) + 3, 0) > WIDE_TABLE_CHARACTERS;
  if (!numeric || !wide || [...text].length <= values + HEADER_SLACK_CHARACTERS) return { lines: [text], width: [...text].length };
  const room = Math.max(values, 8);
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line !== "" && [...`${line} ${word}`].length > room) {
      lines.push(line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  lines.push(line);
  return { lines, width: Math.max(...lines.map((l) => [...l].length)) };
}

function valueWidth(table: Table, i: number): number {
  const column = table.columns[i]!;
  return Math.max(0, ...table.rows.map((r) => [...formatCell(r[column.key], column)].length));
}

function headerCell(table: Table, i: number, numeric: boolean): string {
  const { lines } = headerLines(table, i, numeric);
  return lines.length === 1 ? escapeLatex(lines[0]!) : `\\begin{tabular}[b]{@{}r@{}}${lines.map(escapeLatex).join(" \\\\ ")}\\end{tabular}`;
}

/** A title as a one-line ASCII comment. */
function asciiComment(text: string): string {
  return escapeLatex(text.replace(/\s+/g, " "));
}
