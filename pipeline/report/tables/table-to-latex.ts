/**
 * A table as LaTeX for papers, ready to `\input` inside the paper's own `table` or `table*`
 * float as it is, in one column or two (IEEE and ACM templates are two-column, where
 * `longtable` is refused): a tabular with booktabs rules and no caption, the caption and
 * label suggested in its comment lines, the float too (`latexFloat`):
 *
 * - a `tabular` when its cells are short; a `tabularx` to the line width when a text column
 *   holds sentences (those columns wrap, ragged right); a table with more rows than a page
 *   holds (the reproduction table) is split into parts (`latexTableFiles`: `<id>-1.tex`, …),
 *   each a page-wide tabular of the rows that fit a page, its header repeated, its columns
 *   wrapping at fixed shares of the line so that every part has the same columns;
 * - numbers right-aligned and rounded to the column's decimals; a table wider than the line
 *   set to the line's width, its columns (and their headers) wrapping;
 * - the output is ASCII: LaTeX's specials are escaped (`[` and `]` too, braced, so that a
 *   row starting with "[Y11]" right after `\\` is not read as `\\[<length>]`, and `*`, so
 *   that it is not read as `\\*`), and every other character is spelt in LaTeX — the
 *   symbols our labels use in math mode, accented letters as accent commands — so the file
 *   compiles with pdfLaTeX, LuaLaTeX and XeLaTeX with no input encoding; a character with no
 *   spelling is written as its code point, never dropped silently;
 * - its first line is a comment naming the packages it needs (`latexPackages`), the next
 *   ones how to include it.
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

/** Rows beyond which a table is split into parts, a float each. */
const LONG_TABLE_ROWS = 40;
/** A text column whose cells run longer than this many characters wraps. */
const WRAP_CHARACTERS = 32;
/** A table wider than this many characters, each column as wide as its header or longest cell, is set to the line width (about a 7 in line in \small). */
const WIDE_TABLE_CHARACTERS = 100;
/** A plain tabular at most this many characters wide fits one column of a two-column page (3.5 in in \small). */
const COLUMN_CHARACTERS = 46;
/** Lines of \small text one part may take: a page-high float (9.25 in, 60 lines) with room left for its caption. */
const PART_LINES = 52;
/** A character of running text, in em, when counting the lines a wrapped cell takes (Computer Modern averages 0.45–0.5). */
const RUNNING_CHARACTER_EM = 0.47;

type Layout = "tabular" | "tabularx" | "parts";

/** The packages a table's LaTeX needs: booktabs always, array and tabularx as its layout asks. */
export function latexPackages(table: Table): string[] {
  const layout = layoutOf(table).layout;
  return ["booktabs", ...(layout === "tabular" ? [] : ["array"]), ...(layout === "tabularx" ? ["tabularx"] : [])];
}

/** The float a table goes in: `table` when it fits one column of a two-column page, `table*` (both columns) otherwise. */
export function latexFloat(table: Table): "table" | "table*" {
  const { layout, lengths } = layoutOf(table);
  return layout === "tabular" && naturalWidth(lengths) <= COLUMN_CHARACTERS ? "table" : "table*";
}

/**
 * How the table is set, and which of its columns wrap: a table in parts wraps every column
 * (widths shared out of the line width, so the whole is exactly as wide as the line); a
 * table wider than a line, or with sentences in it, is a tabularx to the line width, its
 * sentence columns wrapping and, when it is wide, its number columns too (their headers
 * then break over lines); anything else a plain tabular.
 */
function layoutOf(table: Table) {
  const numeric = table.columns.map((c) => table.rows.length > 0 && table.rows.every((r) => typeof r[c.key] === "number" || r[c.key] == null));
  const lengths = table.columns.map((c) => [columnHeader(c), ...table.rows.map((r) => formatCell(r[c.key], c))].map((cell) => [...cell].length));
  const wide = naturalWidth(lengths) > WIDE_TABLE_CHARACTERS;
  const sentences = table.columns.map((_, i) => !numeric[i] && Math.max(0, ...lengths[i]!.slice(1)) > WRAP_CHARACTERS);
  const layout: Layout = table.rows.length > LONG_TABLE_ROWS ? "parts" : wide || sentences.some(Boolean) ? "tabularx" : "tabular";
  const wraps = table.columns.map((_, i) => layout === "parts" || sentences[i]! || (layout === "tabularx" && wide && numeric[i]!));
  return { numeric, wraps, layout, lengths, shares: layout === "parts" ? columnShares(table, lengths) : [] };
}

/** Characters across, each column as wide as its longest cell plus its padding. */
function naturalWidth(lengths: number[][]): number {
  return lengths.reduce((sum, l) => sum + Math.max(...l) + 2, 0);
}

/** A line of \small text, in em, and a character and a cell's padding (2 \tabcolsep), in em: for estimating widths. */
const LINE_EM = 57;
const CHARACTER_EM = 0.55;
const PADDING_EM = 1.4;
/** Words longer than this (paths, formulas) may break out of a column rather than widen it. */
const LONGEST_WORD = 12;

/**
 * The column widths of a table in parts, as shares of the line: in proportion to the square root of
 * each column's mean length, but never narrower than its longest word (up to 12
 * characters), so that "differs" or a header word does not stick out of its column.
 */
function columnShares(table: Table, lengths: number[][]): number[] {
  const weights = lengths.map((l) => Math.sqrt(l.reduce((a, b) => a + b, 0) / l.length));
  const wanted = table.columns.map((c) => {
    const words = [columnHeader(c), ...table.rows.map((r) => formatCell(r[c.key], c))].flatMap((cell) => cell.split(/\s+/));
    return (Math.min(LONGEST_WORD, Math.max(...words.map((w) => [...w].length))) * CHARACTER_EM + PADDING_EM) / LINE_EM;
  });
  // Minima that leave no room for the rest are scaled down together.
  const wantedTotal = wanted.reduce((a, b) => a + b, 0);
  const minimum = wanted.map((w) => (wantedTotal > 0.8 ? (0.8 * w) / wantedTotal : w));
  const fixed = new Set<number>();
  let shares = weights;
  for (let round = 0; round < table.columns.length; round++) {
    const free = 1 - [...fixed].reduce((sum, i) => sum + minimum[i]!, 0);
    const weight = weights.reduce((sum, w, i) => (fixed.has(i) ? sum : sum + w), 0);
    shares = weights.map((w, i) => (fixed.has(i) ? minimum[i]! : (free * w) / weight));
    const below = shares.findIndex((share, i) => !fixed.has(i) && share < minimum[i]!);
    if (below < 0) break;
    fixed.add(below);
  }
  return shares;
}

/** A table's LaTeX files: `<id>.tex`, or for a table in parts `<id>-1.tex` … `<id>-<n>.tex`. */
export function latexTableFiles(table: Table): { name: string; content: string }[] {
  const { layout, lengths, shares } = layoutOf(table);
  if (layout !== "parts") return [{ name: `${table.id}.tex`, content: tableToLatex(table) }];
  // Rows as many lines as their longest wrapped cell takes, each part filled up to a page.
  const linesOf = (row: number) => Math.max(...lengths.map((l, i) => Math.ceil(l[row]! / charactersIn(shares[i]!))));
  const parts: number[][] = [[]];
  let lines = linesOf(0);
  for (let r = 0; r < table.rows.length; r++) {
    const rowLines = linesOf(r + 1);
    if (lines + rowLines > PART_LINES && parts[parts.length - 1]!.length > 0) {
      parts.push([]);
      lines = linesOf(0);
    }
    parts[parts.length - 1]!.push(r);
    lines += rowLines;
  }
  return parts.map((rows, p) => ({ name: `${table.id}-${p + 1}.tex`, content: tableToLatex(table, { rows, part: p + 1, of: parts.length }) }));
}

/** About how many characters of \small text a wrapped column of this share of the line holds per line. */
function charactersIn(share: number): number {
  return Math.max(1, Math.floor((share * LINE_EM - PADDING_EM) / RUNNING_CHARACTER_EM));
}

/** One tabular: the whole table, or (`part`) some of its rows, with the whole table's columns. */
export function tableToLatex(table: Table, part?: { rows: number[]; part: number; of: number }): string {
  const { numeric, wraps, layout, shares } = layoutOf(table);
  const aligned = (i: number, column: string) => `>{\\${numeric[i] ? "raggedleft" : "raggedright"}\\arraybackslash}${column}`;
  const spec = table.columns
    .map((_, i) => {
      if (!wraps[i]) return numeric[i] ? "r" : "l";
      return layout === "parts" ? aligned(i, `p{\\dimexpr ${shares[i]!.toFixed(3)}\\linewidth-2\\tabcolsep\\relax}`) : aligned(i, "X");
    })
    .join("");
  const row = (cells: string[]) => `  ${cells.join(" & ")} \\\\`;
  const header = row(table.columns.map((c) => escapeLatex(columnHeader(c))));
  const rows = part === undefined ? table.rows : part.rows.map((r) => table.rows[r]!);
  const body = rows.map((r) => row(table.columns.map((c) => escapeLatex(formatCell(r[c.key], c)))));
  const id = part === undefined ? table.id : `${table.id}-${part.part}`;
  const title = `${table.title}${part === undefined ? "" : ` (part ${part.part} of ${part.of})`}`;
  const float = layout === "parts" ? "table*" : latexFloat(table);
  const comments = [
    `% ${asciiComment(title)}. Generated by ckpt-lab; needs ${latexPackages(table).map((p) => `\\usepackage{${p}}`).join(" ")}`,
    `% A tabular for a float of your own (${float === "table" ? "one column; table* spans both" : "both columns of a two-column page"}), with the caption and label you choose, e.g.`,
    `%   \\begin{${float}}[tbp] \\centering \\small \\input{tables/${id}.tex} \\caption{${asciiComment(title)}}\\label{tab:${id}} \\end{${float}}`,
  ];
  const [open, close] =
    layout === "tabularx" ? [`\\begin{tabularx}{\\linewidth}{${spec}}`, "\\end{tabularx}"] : [`\\begin{tabular}{${spec}}`, "\\end{tabular}"];
  return [...comments, open, "  \\toprule", header, "  \\midrule", ...body, "  \\bottomrule", close, ""].join("\n");
}

/** A title as a one-line ASCII comment. */
function asciiComment(text: string): string {
  return escapeLatex(text.replace(/\s+/g, " "));
}
