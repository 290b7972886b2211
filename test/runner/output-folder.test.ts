/**
 * The output folder is built aside and swapped in whole, one run at a time: a failed run
 * leaves the previous report untouched, a second run is refused while the first holds the
 * lock, a lock whose process is gone is taken over, and what a crash left is cleaned.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { withOutputFolder } from "../../pipeline/runner/output-folder";
import { writeFileAtomic } from "../../pipeline/shared/atomic-write";
import { InputError } from "../../pipeline/shared/errors";

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
function fresh(): string {
  const dir = mkdtempSync(join(tmpdir(), "ckpt-out-"));
  dirs.push(dir);
  return dir;
}

/** A report folder as the runner leaves it (its state file marks it as ours). */
function previousReport(out: string): void {
  mkdirSync(join(out, ".cache"), { recursive: true });
  writeFileSync(join(out, ".cache", "pipeline-state.json"), "{}\n");
  writeFileSync(join(out, "index.html"), "old report\n");
}

describe("withOutputFolder", () => {
  it("swaps the new folder in only when the build succeeds, keeping the old files for the build to reuse", async () => {
    const parent = fresh();
    const out = join(parent, "reports");
    previousReport(out);
    await withOutputFolder(out, async (folder) => {
      expect(folder).not.toBe(out);
      expect(readFileSync(join(folder, "index.html"), "utf8")).toBe("old report\n");
      // The runner writes by replacing files (the new folder's files start as hard links to the old ones).
      writeFileAtomic(join(folder, "index.html"), "new report\n");
      writeFileAtomic(join(folder, ".cache", "pipeline-state.json"), "{ \"next\": true }\n");
      // The old folder is untouched while the new one is built.
      expect(readFileSync(join(out, "index.html"), "utf8")).toBe("old report\n");
      expect(readFileSync(join(out, ".cache", "pipeline-state.json"), "utf8")).toBe("{}\n");
    });
    expect(readFileSync(join(out, "index.html"), "utf8")).toBe("new report\n");
    expect(readdirSync(parent)).toEqual(["reports"]);
  });

  it("leaves the previous report whole when the build fails, and nothing beside it", async () => {
    const parent = fresh();
    const out = join(parent, "reports");
    previousReport(out);
    await expect(
      withOutputFolder(out, async (folder) => {
        writeFileAtomic(join(folder, "index.html"), "half a report");
        throw new Error("a stage failed");
      }),
    ).rejects.toThrow("a stage failed");
    expect(readFileSync(join(out, "index.html"), "utf8")).toBe("old report\n");
    expect(readdirSync(parent)).toEqual(["reports"]);
  });

  it("refuses a folder no pipeline wrote, and a file", async () => {
    const parent = fresh();
    writeFileSync(join(parent, "notes.txt"), "mine");
    await expect(withOutputFolder(parent, async () => undefined)).rejects.toThrow(/holds files that no ckpt pipeline run wrote/);
    expect(readFileSync(join(parent, "notes.txt"), "utf8")).toBe("mine");
    await expect(withOutputFolder(join(parent, "notes.txt"), async () => undefined)).rejects.toThrow(/is a file, not a folder/);
  });

  it("refuses a second run while a live process holds the lock, saying who and since when", async () => {
    const parent = fresh();
    const out = join(parent, "reports");
    const holder = spawn("sleep", ["infinity"], { stdio: "ignore" });
    try {
      writeFileSync(join(parent, ".reports.lock"), JSON.stringify({ pid: holder.pid, host: hostname(), startedAt: "2026-01-02T03:04:05.000Z" }));
      const attempt = withOutputFolder(out, async () => undefined);
      await expect(attempt).rejects.toThrow(InputError);
      await expect(withOutputFolder(out, async () => undefined)).rejects.toThrow(
        new RegExp(`another run holds .*reports since 2026-01-02T03:04:05.000Z, pid ${holder.pid}`),
      );
    } finally {
      holder.kill();
    }
  });

  it("takes over a lock whose process is gone, and puts back a folder a crash left renamed", async () => {
    const parent = fresh();
    const out = join(parent, "reports");
    const dead = spawnSync("true").pid!;
    writeFileSync(join(parent, ".reports.lock"), JSON.stringify({ pid: dead, host: hostname(), startedAt: "2026-01-02T03:04:05.000Z" }));
    // A crash between the two renames of a swap: the report sits under its old name.
    previousReport(join(parent, ".reports.old-4242"));
    mkdirSync(join(parent, ".reports.next-4242"));
    writeFileSync(join(parent, ".reports.old-4242", ".index.html.4242.1.tmp"), "partial");
    const log: string[] = [];
    await withOutputFolder(out, async (folder) => {
      expect(readFileSync(join(folder, "index.html"), "utf8")).toBe("old report\n");
      expect(existsSync(join(folder, ".index.html.4242.1.tmp"))).toBe(false);
    }, { log: (line) => log.push(line) });
    expect(log.join("\n")).toMatch(/removing a stale lock .*pid \d+ since 2026-01-02T03:04:05.000Z is not running/);
    expect(log.join("\n")).toMatch(/left renamed by an interrupted run; putting it back/);
    expect(readdirSync(parent).sort()).toEqual(["reports"]);
  });
});

describe("the folder a fresh clone has", () => {
  it("accepts reports/ holding only the project's README and notebook copies", async () => {
    const parent = fresh();
    const out = join(parent, "reports");
    mkdirSync(join(out, "notebooks"), { recursive: true });
    writeFileSync(join(out, "README.md"), "# reports/\n");
    await withOutputFolder(out, async (folder) => writeFileSync(join(folder, "index.html"), "report\n"));
    expect(readdirSync(out).sort()).toEqual(["README.md", "index.html", "notebooks"]);
  });
});
