/**
 * `ckpt notebook install`'s copy of the notebooks (pipeline/notebook/copy-notebooks.ts): into
 * a folder of the user's, with the sample inputs their parameters name and links to the
 * installed packages; a second install keeps what is there; the clone's own folder is left.
 */
import { mkdtempSync, readFileSync, readlinkSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { copyNotebooks, listNotebooks } from "../../pipeline/notebook";
import { projectRoot } from "../../pipeline/shared/version";

const root = projectRoot();
const work = mkdtempSync(join(tmpdir(), "ckpt-copy-notebooks-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("copying the notebooks where a user works", () => {
  it("copies every notebook, the sample inputs they read by default, and links the library and danfojs", () => {
    const copied = copyNotebooks(root, join(work, "notebooks"));
    expect(copied.copied).toBe(true);
    expect(copied.kept).toEqual([]);
    for (const name of listNotebooks(root)) expect(readFileSync(join(work, "notebooks", `${name}.ipynb`), "utf8")).toBe(readFileSync(join(root, "notebooks", `${name}.ipynb`), "utf8"));
    // Notebook 01 reads the synthetic Azur trace by default, 02 family A, 03 the example job.
    for (const input of ["data/traces/synthetic-azur.csv", "data/schedule/family-a-seed-1.csv", "data/place/example-job.csv"]) {
      expect(readFileSync(join(work, input), "utf8"), input).toBe(readFileSync(join(root, input), "utf8"));
    }
    expect(readlinkSync(join(work, "notebooks", "node_modules", "ckpt-lab"))).toBe(root);
    expect(readlinkSync(join(work, "notebooks", "node_modules", "danfojs"))).toBe(dirname(require.resolve("danfojs/package.json")));
  });

  it("keeps the files a second install finds, edits included", () => {
    writeFileSync(join(work, "notebooks", "01-recalibrate-bandwidth.ipynb"), "{}\n");
    const again = copyNotebooks(root, join(work, "notebooks"));
    expect(again.written).toEqual([]);
    expect(again.kept).toContain(join(work, "notebooks", "01-recalibrate-bandwidth.ipynb"));
    expect(readFileSync(join(work, "notebooks", "01-recalibrate-bandwidth.ipynb"), "utf8")).toBe("{}\n");
  });

  it("leaves the project's own notebooks/ as it is", () => {
    expect(copyNotebooks(root, join(root, "notebooks"))).toEqual({ folder: join(root, "notebooks"), copied: false, written: [], kept: [] });
  });
});
