/**
 * A report's outputs as a paper uses them, checked with the real tools from Debian (installed
 * by test/ensure-system-packages.sh): `paper/figures-and-tables.tex` compiled by pdfLaTeX
 * (TeX Live), and every figure's PDF listed by `pdffonts` (poppler) to see that its fonts are
 * embedded. A missing tool is an error saying how to install it, never a skipped test.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

function requireTool(name: string, debianPackage: string): void {
  const found = spawnSync("sh", ["-c", `command -v ${name}`], { encoding: "utf8" });
  if (found.status !== 0) throw new Error(`${name} is not installed: install Debian's ${debianPackage} (bash test/ensure-system-packages.sh)`);
}

export interface LatexRun {
  status: number | null;
  /** The log's error lines ("! …") with the two lines after each. */
  errors: string[];
  /** Overfull boxes wider than 1 pt, as the log reports them. */
  overfull: string[];
  pages: number;
}

/** Compile `<report>/paper/figures-and-tables.tex` in its folder (the output elsewhere: the report is left as it was). */
export function compilePaper(reportDir: string): LatexRun {
  requireTool("pdflatex", "texlive-latex-base and texlive-latex-recommended");
  const out = mkdtempSync(join(tmpdir(), "ckpt-paper-"));
  try {
    const run = spawnSync("pdflatex", ["-interaction=nonstopmode", "-halt-on-error", "-file-line-error", `-output-directory=${out}`, "figures-and-tables.tex"], {
      cwd: join(reportDir, "paper"),
      encoding: "utf8",
      timeout: 300_000,
    });
    const log = readFileSync(join(out, "figures-and-tables.log"), "latin1");
    const lines = log.split("\n");
    const errors = lines.flatMap((line, i) => (/^!|^\S+\.tex:\d+: /.test(line) ? [lines.slice(i, i + 3).join("\n")] : []));
    const overfull = lines.filter((line) => /^Overfull \\hbox \((\d+(\.\d+)?)pt too wide\)/.test(line) && Number(/\((\d+(?:\.\d+)?)pt/.exec(line)![1]) > 1);
    const pages = Number(/Output written on .* \((\d+) pages?/.exec(log.replace(/\n/g, ""))?.[1] ?? 0);
    return { status: run.status, errors, overfull, pages };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

export interface PdfFont {
  file: string;
  name: string;
  type: string;
  embedded: boolean;
}

/** Every font of every PDF under `<report>/figures`, as `pdffonts` lists it. */
export function figureFonts(reportDir: string): PdfFont[] {
  requireTool("pdffonts", "poppler-utils");
  const dir = join(reportDir, "figures");
  return readdirSync(dir)
    .filter((f) => f.endsWith(".pdf"))
    .sort()
    .flatMap((file) => {
      const run = spawnSync("pdffonts", [join(dir, file)], { encoding: "utf8" });
      if (run.status !== 0) throw new Error(`pdffonts ${file}: ${run.stderr}`);
      // name type encoding emb sub uni object ID, after two header lines; "emb" is the fourth column from the right.
      return run.stdout
        .trim()
        .split("\n")
        .slice(2)
        .map((line) => {
          const columns = line.trim().split(/\s+/);
          return { file, name: columns[0]!, type: columns.slice(1, -6).join(" "), embedded: columns[columns.length - 5] === "yes" };
        });
    });
}
