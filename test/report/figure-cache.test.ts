/**
 * The report's rendered-figure cache: a figure whose spec and title did not change is read
 * back byte for byte instead of rendered again (even under --force); a changed spec, or
 * other renderer code (the salt), renders afresh; entries no longer used are removed.
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { renderReport } from "../../pipeline/report/page/render-report";
import type { ReportContent } from "../../pipeline/report/page/report-content";
import { builderFigures } from "./fixtures/builder-figures";

const dir = mkdtempSync(join(tmpdir(), "ckpt-figure-cache-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function content(figures = builderFigures().slice(0, 3)): ReportContent {
  return { title: "t", cluster: null, summary: [], reproduction: [], sections: [{ id: "s", title: "s", intro: "", figures, tables: [], notes: [] }] };
}
const provenance = { inputs: [], parameters: {}, toolVersion: "0", stages: [] };
const figureFiles = (files: { path: string; content: Uint8Array | string }[]) =>
  Object.fromEntries(files.filter((f) => f.path.startsWith("figures/")).map((f) => [f.path, Buffer.from(f.content)]));

describe("the rendered-figure cache", () => {
  it("reuses unchanged figures byte for byte, renders changed ones, prunes the rest", async () => {
    const cache = { dir, salt: "code-1" };
    const fresh = await renderReport(content(), provenance);
    let renders = 0;
    const first = await renderReport(content(), provenance, { cache, onFigure: () => renders++ });
    expect(figureFiles(first.files)).toEqual(figureFiles(fresh.files));
    expect(readdirSync(dir)).toHaveLength(3 * 4); // per figure: svg, png, pdf, and its warnings

    // Read back, not rendered: no cache file is written again.
    const written = () => Object.fromEntries(readdirSync(dir).map((name) => [name, statSync(join(dir, name)).mtimeMs]));
    const before = written();
    const second = await renderReport(content(), provenance, { cache });
    expect(figureFiles(second.files)).toEqual(figureFiles(fresh.files));
    expect(written()).toEqual(before);

    // One figure changed: a new entry for it, the old one pruned.
    const figures = builderFigures().slice(0, 3);
    figures[0] = { ...figures[0]!, title: "another title" };
    await renderReport(content(figures), provenance, { cache });
    expect(readdirSync(dir)).toHaveLength(3 * 4);
    // Other renderer code: nothing of the old cache is reused.
    await renderReport(content(), provenance, { cache: { dir, salt: "code-2" } });
    expect(readdirSync(dir)).toHaveLength(3 * 4);
    expect(renders).toBe(3);
  }, 60_000);
});
