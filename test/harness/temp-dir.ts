/** A fresh temporary folder per test file, removed afterwards. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";

export function temporaryFolder(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `ckpt-${prefix}-`));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
