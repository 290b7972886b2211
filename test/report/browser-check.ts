/**
 * Open a report page in headless Chromium (Debian's /usr/bin/chromium driven by
 * playwright-core; `npx playwright install` cannot download browsers here) and say what a
 * reader would see: console errors and page errors, and for every figure whether vega drew
 * it (an <svg> with marks inside, or an error message). Keeps a full-page screenshot.
 */
import { existsSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { chromium } from "playwright-core";

export interface FigureInPage {
  id: string;
  rendered: boolean;
  error: boolean;
  /** Number of SVG elements drawn inside the figure's chart container. */
  svgElements: number;
}

export interface BrowserCheck {
  consoleErrors: string[];
  figures: FigureInPage[];
  /** Whether the page's script finished every figure. */
  allDone: boolean;
}

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export async function checkReportInBrowser(htmlPath: string, screenshotPath: string): Promise<BrowserCheck> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`no Chromium at ${CHROMIUM_PATH}: install Debian's chromium (test/ensure-system-packages.sh) or set CHROMIUM_PATH`);
  }
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const consoleErrors: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") consoleErrors.push(message.text());
    });
    page.on("pageerror", (error) => consoleErrors.push(`page error: ${error.message}`));
    // Any request leaving file:// would mean the page is not self-contained.
    page.on("request", (request) => {
      if (!request.url().startsWith("file:") && !request.url().startsWith("data:")) consoleErrors.push(`network request: ${request.url()}`);
    });
    await page.goto(pathToFileURL(htmlPath).href);
    const allDone = await page
      .waitForSelector("body[data-charts-rendered]", { timeout: 20_000 })
      .then(() => true)
      .catch(() => false);
    const figures = await page.$$eval("figure[data-spec]", (elements) =>
      elements.map((figure) => ({
        id: figure.id,
        rendered: figure.getAttribute("data-rendered") === "true",
        error: figure.getAttribute("data-render-error") === "true",
        svgElements: figure.querySelectorAll(".chart svg *").length,
      })),
    );
    await page.screenshot({ path: screenshotPath, fullPage: true });
    return { consoleErrors, figures, allDone };
  } finally {
    await browser.close();
  }
}
