/**
 * The runner's cache of file hashes by stat (pipeline/runner/file-hashes.ts): a hash is
 * reused only for a file whose size, modification time, inode and device are unchanged,
 * and only if the file was older than the racy window when it was hashed.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FileHashes } from "../../pipeline/runner/file-hashes";
import { sha256OfBytes } from "../../pipeline/shared/hash";

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
function fresh(): string {
  const dir = mkdtempSync(join(tmpdir(), "ckpt-file-hashes-"));
  dirs.push(dir);
  return dir;
}

/** Rewrite `path` with `content` and put its modification time back to what it was: an edit the stat cannot see. */
function editKeepingTime(path: string, content: string): void {
  const before = statSync(path);
  writeFileSync(path, content);
  utimesSync(path, before.atime, before.mtime);
}

describe("FileHashes", () => {
  it("hashes a file's content, and reads it again when its size or time changed", () => {
    const dir = fresh();
    const file = join(dir, "trace.csv");
    writeFileSync(file, "a,b\n1,2\n");
    const hashes = FileHashes.load(join(dir, "cache.json"));
    expect(hashes.sha256(file)).toBe(sha256OfBytes("a,b\n1,2\n"));
    writeFileSync(file, "a,b\n1,2\n3,4\n");
    expect(hashes.sha256(file)).toBe(sha256OfBytes("a,b\n1,2\n3,4\n"));
  });

  it("remembers across runs the hash of a file older than the racy window, by its stat alone", () => {
    const dir = fresh();
    const file = join(dir, "old.csv");
    writeFileSync(file, "1,2\n");
    const hourAgo = new Date(Date.now() - 3600_000);
    utimesSync(file, hourAgo, hourAgo);
    const cache = join(dir, "cache.json");
    const first = FileHashes.load(cache);
    expect(first.sha256(file)).toBe(sha256OfBytes("1,2\n"));
    first.save(cache);
    // Same size, same time, same inode: the next run takes the remembered hash without reading
    // (what lets a no-op run skip reading ~30 MB). A real edit changes the time.
    editKeepingTime(file, "3,4\n");
    expect(FileHashes.load(cache).sha256(file)).toBe(sha256OfBytes("1,2\n"));
    writeFileSync(file, "3,4\n");
    expect(FileHashes.load(cache).sha256(file)).toBe(sha256OfBytes("3,4\n"));
  });

  it("does not remember a file hashed within the racy window, so an edit in the same timestamp tick is seen", () => {
    const dir = fresh();
    const file = join(dir, "fresh.csv");
    writeFileSync(file, "1,2\n");
    // Within the window by its time, not by how soon it is hashed after the write.
    const hourAhead = new Date(Math.floor(Date.now() / 1000) * 1000 + 3600_000);
    utimesSync(file, hourAhead, hourAhead);
    const cache = join(dir, "cache.json");
    const first = FileHashes.load(cache);
    expect(first.sha256(file)).toBe(sha256OfBytes("1,2\n"));
    first.save(cache);
    editKeepingTime(file, "3,4\n");
    expect(FileHashes.load(cache).sha256(file)).toBe(sha256OfBytes("3,4\n"));
  });

  it("remembers a file the runner wrote, once the file system's clock has moved past its time", () => {
    const dir = fresh();
    const cache = join(dir, "cache.json");
    // Times set, not waited for: one before the clock at save (whole ms, so that
    // editKeepingTime can put it back exactly), one after it (a write in save's own tick).
    const cases = [
      { name: "before.json", timeMs: Math.floor(Date.now() / 1000) * 1000 - 60_000, remembered: true },
      { name: "after.json", timeMs: Math.floor(Date.now() / 1000) * 1000 + 3600_000, remembered: false },
    ];
    const first = FileHashes.load(cache);
    for (const { name, timeMs } of cases) {
      writeFileSync(join(dir, name), "[1]\n");
      utimesSync(join(dir, name), new Date(timeMs), new Date(timeMs));
      first.record(join(dir, name), `artifacts/${name}`, sha256OfBytes("[1]\n"));
    }
    first.save(cache);
    for (const { name, remembered } of cases) {
      editKeepingTime(join(dir, name), "[2]\n");
      expect(FileHashes.load(cache).sha256(join(dir, name), `artifacts/${name}`), name).toBe(sha256OfBytes(remembered ? "[1]\n" : "[2]\n"));
    }
    expect(readdirSync(dir).sort()).toEqual(["after.json", "before.json", "cache.json"]);
  });

  it("starts empty from a missing or damaged cache, and does not rewrite an unchanged one", () => {
    const dir = fresh();
    const cache = join(dir, "cache.json");
    FileHashes.load(cache).save(cache);
    expect(existsSync(cache)).toBe(true);
    utimesSync(cache, new Date(0), new Date(0));
    FileHashes.load(cache).save(cache);
    expect(statSync(cache).mtimeMs).toBe(0);
    writeFileSync(cache, "{ not json");
    const file = join(dir, "x");
    writeFileSync(file, "x");
    expect(FileHashes.load(cache).sha256(file)).toBe(sha256OfBytes("x"));
  });
});
