/**
 * Text from traces reaches every output: a hostile trace (markup and script in its cluster
 * name, formula cells in its run ids, line separators and control characters) gives a
 * report that runs no script from the data in Chromium and shows the text literally, an
 * SVG and LaTeX that keep it as text, and CSV cells a spreadsheet will not evaluate.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium } from "playwright-core";
import { afterAll, describe, expect, it } from "vitest";
import { syntheticClusterRows, type ClusterShape } from "../../pipeline/ingest/synthetic-cluster";
import { jsonInScript } from "../../pipeline/report/page/report-html";
import { escapeLatex } from "../../pipeline/report/tables/table-to-latex";
import { csvField } from "../../pipeline/shared/csv-field";
import { runCli } from "../cli-io";
import { CHROMIUM_PATH } from "./browser-check";

const dir = mkdtempSync(join(tmpdir(), "ckpt-hostile-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The cluster name every output must show as text. */
const HOSTILE = `</script><script>window.__pwned=1</script><img src=x onerror="window.__pwned=2"><!-- \u2028 ' & $ \\ %`;

function hostileTrace(): string {
  const shape: ClusterShape = { name: "h", cluster: HOSTILE, sizesMb: [50, 100, 200], mValues: [1, 2, 3, 4], bandwidthMbPerS: (m) => 20 * m - 2 * m * m };
  const quote = (field: string) => `"${field.replace(/"/g, '""')}"`;
  const lines = ["run_id,node,m,size_mb,ckpt_mb,start_s,end_s,cluster"];
  for (const row of syntheticClusterRows({ shape, seed: 5, repetitions: 3 })) {
    lines.push([quote(`=HYPERLINK("http://example.invalid")${row.runId}`), row.node, row.m, row.sizeMb, row.ckptMb, row.startS, row.endS, quote(row.cluster)].join(","));
  }
  // A malformed row whose raw text lands in rejects.csv.
  lines.push(`@SUM(1+1),n1,2,50,50,0,x,${quote(HOSTILE)}`);
  const path = join(dir, "hostile.csv");
  writeFileSync(path, `${lines.join("\n")}\n`);
  return path;
}

describe("escaping of trace text", () => {
  it("JSON in a script element cannot end it or start a comment", () => {
    const text = jsonInScript({ name: HOSTILE });
    expect(text).not.toMatch(/<|>|&|\u2028/);
    expect(JSON.parse(text)).toEqual({ name: HOSTILE });
  });

  it("CSV fields that a spreadsheet would evaluate are neutralised, numbers are not", () => {
    expect(csvField("=1+1")).toBe("'=1+1");
    expect(csvField("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvField('-2+3,"x"')).toBe(`"'-2+3,""x"""`);
    expect(csvField(-2)).toBe("-2");
    expect(csvField("plain")).toBe("plain");
  });

  it("LaTeX keeps the text, without control characters", () => {
    expect(escapeLatex("a\u0007b<c>$%\\")).toBe("ab\\textless{}c\\textgreater{}\\$\\%\\textbackslash{}");
  });

  it("a hostile trace gives a report that runs nothing from the data and shows it literally", async () => {
    const out = join(dir, "report");
    const run = await runCli(["pipeline", "--traces", hostileTrace(), "--out", out, "--param", "schedule.model=fitted", "--param", "place.simulations=1000", "--param", "schedule.campaign.seeds=3"]);
    expect(run.code, run.stderr).toBe(0);

    // CSV: no cell of any table or of the rejects file starts with a formula character.
    for (const file of [...readdirSync(join(out, "tables")).filter((f) => f.endsWith(".csv")).map((f) => join(out, "tables", f)), join(out, "rejects.csv")]) {
      for (const line of readFileSync(file, "utf8").split("\n")) {
        for (const cell of line.split(",")) expect(cell, `${file}: ${line}`).not.toMatch(/^"?[=+@]/);
      }
    }
    expect(readFileSync(join(out, "rejects.csv"), "utf8")).toContain(`"'@SUM(1+1)`);
    // SVG: the name (in the fitted model's legends) is text, not markup.
    const svgs = readdirSync(join(out, "figures")).filter((f) => f.endsWith(".svg")).map((f) => readFileSync(join(out, "figures", f), "utf8"));
    for (const svg of svgs) expect(svg).not.toMatch(/<script|<img/);
    expect(svgs.some((svg) => svg.includes("&lt;/script&gt;&lt;script&gt;window.__pwned=1"))).toBe(true);
    // LaTeX: the model card compiles as text.
    expect(readFileSync(join(out, "tables", "fitted-model-card.tex"), "utf8")).toContain("\\textless{}/script\\textgreater{}");

    const browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"],
    });
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on("pageerror", (error) => errors.push(error.message));
      page.on("dialog", (dialog) => {
        errors.push(`dialog: ${dialog.message()}`);
        void dialog.dismiss();
      });
      await page.goto(pathToFileURL(join(out, "index.html")).href);
      await page.waitForSelector("body[data-charts-rendered]", { timeout: 30_000 });
      expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
      expect(errors).toEqual([]);
      // Shown literally: in the title, the heading and the summary.
      // (The line separator, which no output can show, becomes a space: displayText.)
      expect(await page.title()).toContain(HOSTILE.replace(/ \u2028 /, " "));
      expect(await page.textContent("h1")).toContain("</script><script>window.__pwned=1</script>");
      expect(await page.textContent("#summary")).toContain(`<img src=x onerror="window.__pwned=2">`);
      expect(await page.$$eval("figure[data-render-error]", (f) => f.length)).toBe(0);
      expect(await page.$$eval("img[src=x]", (f) => f.length)).toBe(0);
    } finally {
      await browser.close();
    }
  }, 120_000);
});
