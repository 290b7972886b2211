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

/**
 * How long drawing the charts or a screenshot may take: generous, since a loaded machine
 * (two cores shared by several runs) takes well over playwright's 30 s default for a
 * full-page screenshot of the report; a bound, not a measure.
 */
const BROWSER_TIMEOUT_MS = 180_000;

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
      .waitForSelector("body[data-charts-rendered]", { timeout: BROWSER_TIMEOUT_MS })
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
    await page.screenshot({ path: screenshotPath, fullPage: true, timeout: BROWSER_TIMEOUT_MS });
    return { consoleErrors, figures, allDone };
  } finally {
    await browser.close();
  }
}

export interface PageFit {
  /** The document's scroll width: more than the window's means a horizontal scroll bar. */
  scrollWidth: number;
  /** Parts that reach past the window's right edge or scroll sideways inside. */
  overflowing: { part: string; right: number; scrollWidth: number; clientWidth: number }[];
  /** The parts checked, by name, each kept as a screenshot. */
  parts: string[];
}

/**
 * Whether the parts a reader looks at first fit a window `width` px wide without scrolling
 * sideways: the summary, the first figure of each section, the model cards and the
 * reproduction's summary and open questions (index.html), or a whole page (any other
 * page, e.g. reproduction.html). Each part is kept as a screenshot in `screenshotDir`.
 */
export async function checkPageFit(htmlPath: string, width: number, screenshotDir: string, prefix: string): Promise<PageFit> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"],
  });
  try {
    const page = await browser.newPage({ viewport: { width, height: 1000 } });
    await page.goto(pathToFileURL(htmlPath).href);
    // A report page draws its charts first (a page without charts, e.g. reproduction.html, has nothing to wait for).
    if ((await page.locator("[data-spec]").count()) > 0) await page.waitForSelector("body[data-charts-rendered]", { timeout: BROWSER_TIMEOUT_MS });
    // Each part is marked (data-fit-part) where it is found, and measured and shot by that mark.
    const selectors = await page.evaluate(() => {
      const parts: [string, Element][] = [];
      const summary = document.querySelector("#summary");
      if (summary) parts.push(["summary", summary]);
      for (const section of document.querySelectorAll("main > section")) {
        const figure = section.querySelector("figure");
        if (figure) parts.push([`figure ${figure.id.replace(/^figure-/, "")}`, figure]);
      }
      for (const card of document.querySelectorAll("div.table[id$='-card']")) parts.push([`model card ${card.id}`, card]);
      const reproduction = document.querySelector("#table-reproduction-summary");
      if (reproduction) parts.push(["reproduction summary", reproduction]);
      document.querySelectorAll("details.list").forEach((list, i) => parts.push([`open questions ${i + 1}`, list]));
      if (parts.length === 0) parts.push(["page", document.body]);
      return parts.map(([part, element], k) => {
        element.setAttribute("data-fit-part", String(k));
        return [part, `[data-fit-part="${k}"]`] as [string, string];
      });
    });
    const overflowing: PageFit["overflowing"] = [];
    for (const [part, selector] of selectors) {
      const element = page.locator(selector).first();
      const measured = await element.evaluate((el) => {
        const right = el.getBoundingClientRect().right + window.scrollX;
        // The part itself and any box inside it that scrolls sideways (a chart or table wider than its card).
        const boxes = [el, ...el.querySelectorAll("*")].filter((e) => ["auto", "scroll"].includes(getComputedStyle(e).overflowX) || e === el);
        const widest = boxes.reduce((w, e) => (e.scrollWidth - e.clientWidth > w.scrollWidth - w.clientWidth ? e : w), el);
        return { right, scrollWidth: widest.scrollWidth, clientWidth: widest.clientWidth };
      });
      if (measured.right > width + 0.5 || measured.scrollWidth > measured.clientWidth + 1) overflowing.push({ part, ...measured });
      await element.screenshot({ path: `${screenshotDir}/${prefix}-${part.replace(/[^a-z0-9]+/gi, "-").toLowerCase()}.png`, timeout: BROWSER_TIMEOUT_MS });
    }
    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    return { scrollWidth, overflowing, parts: selectors.map(([part]) => part) };
  } finally {
    await browser.close();
  }
}
