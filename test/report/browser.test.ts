/**
 * The report page as a reader opens it: headless Chromium on file://, no console error, no
 * request leaving the page, every figure drawn by vega. The screenshot is kept under
 * test-results/screenshots/ (a CI artifact; tests never write into the user's reports/).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runPipeline } from "../../pipeline/run";
import { projectRoot } from "../../pipeline/shared/version";
import { checkReportInBrowser } from "./browser-check";

const out = mkdtempSync(join(tmpdir(), "ckpt-report-browser-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe("reports/index.html in headless Chromium", () => {
  it("draws every figure offline without console errors", async () => {
    const run = await runPipeline({ out });
    // Figures of measured durations are shown as images (volatile): every other one is drawn by vega.
    const manifest = JSON.parse(readFileSync(run.manifestPath, "utf8")) as { outputs: { path: string; volatile?: true }[] };
    const figureIds = manifest.outputs.filter((o) => o.path.endsWith(".vl.json") && !o.volatile);
    const screenshots = join(projectRoot(), "test-results", "screenshots");
    mkdirSync(screenshots, { recursive: true });
    const check = await checkReportInBrowser(join(out, "index.html"), join(screenshots, "index.png"));
    expect(check.consoleErrors).toEqual([]);
    expect(check.allDone).toBe(true);
    expect(check.figures.length).toBe(figureIds.length);
    for (const figure of check.figures) {
      expect(figure, figure.id).toMatchObject({ rendered: true, error: false });
      expect(figure.svgElements, figure.id).toBeGreaterThan(20);
    }
  }, 120_000);
});
