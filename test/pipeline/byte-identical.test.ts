/**
 * The pipeline's promise: same inputs, same bytes. Two runs into two fresh folders must
 * give identical trees, file by file, with no trace of where they were written — except
 * the outputs the manifest marks volatile (measured durations) and the runner's own
 * bookkeeping of their hashes and of the files' stat (inodes, times); a rerun into the same
 * folder must skip every stage and leave every other byte in place.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runPipeline } from "../../pipeline/run";
import { FILE_HASHES_PATH } from "../../pipeline/runner/run-stages";
import { sha256OfFile } from "../../pipeline/shared/hash";
import { projectRoot } from "../../pipeline/shared/version";

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else out[relative(dir, path)] = sha256OfFile(path);
    }
  };
  walk(dir);
  return out;
}

describe("pipeline outputs", () => {
  it("are byte-identical across runs and skip everything when nothing changed", async () => {
    const a = mkdtempSync(join(tmpdir(), "ckpt-report-a-"));
    const b = mkdtempSync(join(tmpdir(), "ckpt-report-b-"));
    dirs.push(a, b);
    await runPipeline({ out: a });
    await runPipeline({ out: b });
    const treeA = tree(a);
    expect(Object.keys(treeA)).toContain("index.html");
    expect(Object.keys(treeA)).toContain("manifest.json");
    expect(Object.keys(treeA).filter((p) => p.endsWith(".png")).length).toBeGreaterThanOrEqual(3);
    const manifest = JSON.parse(readFileSync(join(a, "manifest.json"), "utf8")) as { outputs: { path: string; sha256?: string; volatile?: true }[] };
    const volatile = manifest.outputs.filter((o) => o.volatile).map((o) => o.path);
    const stable = (t: Record<string, string>) => {
      const copy = { ...t };
      for (const path of [...volatile, ...(volatile.length > 0 ? [".cache/pipeline-state.json"] : [])]) delete copy[path];
      delete copy[FILE_HASHES_PATH];
      return copy;
    };
    expect(stable(tree(b))).toEqual(stable(treeA));
    expect(Object.keys(tree(b)).sort()).toEqual(Object.keys(treeA).sort());

    const rerun = await runPipeline({ out: a });
    expect(rerun.outcomes.every((o) => !o.ran)).toBe(true);
    const withoutStatCache = (t: Record<string, string>) => Object.fromEntries(Object.entries(t).filter(([path]) => path !== FILE_HASHES_PATH));
    expect(withoutStatCache(tree(a))).toEqual(withoutStatCache(treeA));

    // Outputs say nothing about where they were made.
    for (const path of Object.keys(treeA)) {
      const text = readFileSync(join(a, path)).toString("latin1");
      expect(text.includes(a), path).toBe(false);
      expect(text.includes(projectRoot()), path).toBe(false);
    }
    // Every output is in the manifest, with its hash unless it is volatile; .cache/ is the
    // runner's bookkeeping (its state, the report's rendered-figure cache), not an output.
    const listed = Object.fromEntries(manifest.outputs.map((o) => [o.path, o.sha256 ?? treeA[o.path]]));
    const expected = Object.fromEntries(Object.entries(treeA).filter(([path]) => !path.startsWith(".cache/")));
    delete expected["manifest.json"];
    expect(listed).toEqual(expected);
  }, 120_000);
});
