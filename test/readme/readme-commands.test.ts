/**
 * Every command block of the README and of the other user-facing documents, run as
 * written, the way a new user types them: from a fresh temporary folder (one per document,
 * its blocks in order, as a reader follows it), with `ckpt` on the PATH as `npm link` puts
 * it there (a temporary bin folder holding a `ckpt` link to this checkout's bin/ckpt.js),
 * each block by `bash -e` (a command that fails fails the block). A block fails the test
 * when it exits non-zero, or when the sample output shown after it is not what it printed.
 *
 * Blocks a test must not run are marked in the document, with the reason (the fresh
 * machine's `npm ci`, cluster-only commands, synopses with placeholders, long benchmarks);
 * they are listed here as skipped, with that reason. The markers, and how a sample output
 * is compared (`…` for the lines and the parts of a line that legitimately vary), are
 * described in markdown-commands.ts.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projectRoot } from "../../pipeline/shared/version";
import { commandBlocks, matchesSample } from "./markdown-commands";

const root = projectRoot();

/** The user-facing documents: the README, docs/, the stages' READMEs, data/'s READMEs. */
function documents(): string[] {
  const markdown = (folder: string, deep: boolean): string[] =>
    readdirSync(join(root, folder), { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() && deep ? markdown(join(folder, entry.name), deep) : entry.name.endsWith(".md") ? [join(folder, entry.name)] : [],
    );
  const stages = readdirSync(join(root, "pipeline"), { withFileTypes: true }).filter((entry) => entry.isDirectory() && existsSync(join(root, "pipeline", entry.name, "README.md")));
  return ["README.md", ...markdown("docs", false), ...stages.map((stage) => join("pipeline", stage.name, "README.md")), ...markdown("data", true)];
}

const scratch = mkdtempSync(join(tmpdir(), "ckpt-readme-"));
const bin = join(scratch, "bin");

beforeAll(() => {
  // `ckpt` runs the built dist/: build it if the sources changed (a no-op after npm ci, so
  // that the suite of a fresh clone never has two builds of dist/ at once).
  const build = spawnSync(process.execPath, [join(root, "bin", "build.js")], { cwd: root, encoding: "utf8" });
  if (build.status !== 0) throw new Error(`node bin/build.js failed:\n${build.stdout}${build.stderr}`);
  mkdirSync(bin);
  symlinkSync(join(root, "bin", "ckpt.js"), join(bin, "ckpt"));
}, 300_000);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A block's commands run in `cwd`: stdout and stderr into one pipe, in the order printed. */
function runBlock(script: string, cwd: string): { status: number | null; output: string } {
  const run = spawnSync("bash", ["-e", "-c", `exec 2>&1\n${script}`], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, PATH: `${bin}:${process.env.PATH}` },
    timeout: 20 * 60_000,
    maxBuffer: 1 << 26,
  });
  return { status: run.status, output: run.stdout };
}

for (const document of documents()) {
  const blocks = commandBlocks(readFileSync(join(root, document), "utf8"), document);
  if (blocks.length === 0) continue;
  describe(document, () => {
    const folder = join(scratch, document.replace(/[/.]/g, "-"));
    beforeAll(() => mkdirSync(folder, { recursive: true }));
    for (const block of blocks) {
      const title = `line ${block.line}: ${block.script.split("\n").find((l) => l.trim() !== "" && !l.trim().startsWith("#"))?.trim() ?? ""}`;
      if (!block.mode.run) {
        it.skip(`${title} — not run: ${block.mode.reason}`, () => {});
        continue;
      }
      const cloneData = block.mode.cloneData;
      it(title, () => {
        let cwd = folder;
        if (cloneData) {
          cwd = join(folder, `clone-data-${block.line}`);
          mkdirSync(cwd);
          symlinkSync(join(root, "data"), join(cwd, "data"));
        }
        const { status, output } = runBlock(block.script, cwd);
        const where = `${document}:${block.line}, run in ${relative(scratch, cwd)}`;
        if (status !== 0) expect.fail(`${where}: exit ${status}\n--- the block ---\n${block.script}\n--- what it printed ---\n${output}`);
        if (block.output !== null && !matchesSample(block.output.text, output)) {
          expect.fail(`${where}: the sample output at line ${block.output.line} is not what the commands print (… stands for what varies)\n--- the sample ---\n${block.output.text}\n--- what they printed ---\n${output}`);
        }
      }, 25 * 60_000);
    }
  });
}
