/**
 * Two `ckpt pipeline` processes on one --out: the second is refused while the first runs;
 * a run killed mid-way (SIGKILL) leaves the previous report whole, its manifest describing
 * exactly the files present, and the next run takes over its stale lock and cleans up.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { sha256OfFile } from "../../pipeline/shared/hash";

const ckpt = [process.execPath, "--import", "tsx", join(__dirname, "..", "harness", "ckpt-from-source.ts")];
const parent = mkdtempSync(join(tmpdir(), "ckpt-concurrent-"));
afterAll(() => rmSync(parent, { recursive: true, force: true }));
const out = join(parent, "reports");
const args = ["pipeline", "--out", out, "--param", "place.simulations=2000", "--param", "schedule.campaign.seeds=5"];

async function until(condition: () => boolean, timeoutMs = 60_000): Promise<void> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Every output the manifest lists is there with its hash (volatile ones without). */
function expectManifestMatchesFiles(): void {
  const manifest = JSON.parse(readFileSync(join(out, "manifest.json"), "utf8")) as { outputs: { path: string; sha256?: string }[] };
  for (const output of manifest.outputs) {
    expect(existsSync(join(out, output.path)), output.path).toBe(true);
    if (output.sha256) expect(sha256OfFile(join(out, output.path)), output.path).toBe(output.sha256);
  }
}

describe("concurrent pipeline runs on one --out", () => {
  it("refuses the second, survives a SIGKILL, and takes over the stale lock", async () => {
    const first = spawn(ckpt[0]!, [...ckpt.slice(1), ...args], { stdio: ["ignore", "ignore", "pipe"] });
    const firstExit = new Promise<number | null>((resolve) => first.on("exit", resolve));
    await until(() => existsSync(join(parent, ".reports.lock")));
    const second = spawnSync(ckpt[0]!, [...ckpt.slice(1), ...args], { encoding: "utf8" });
    expect(second.status).toBe(1);
    expect(second.stderr).toMatch(new RegExp(`another run holds .*reports since \\S+, pid ${first.pid} on `));
    expect(await firstExit).toBe(0);
    expectManifestMatchesFiles();
    const report = readFileSync(join(out, "index.html"));

    // Killed while building aside: the report in place is untouched.
    const killed = spawn(ckpt[0]!, [...ckpt.slice(1), ...args, "--force"], { stdio: "ignore" });
    const killedExit = new Promise((resolve) => killed.on("exit", resolve));
    await until(() => readdirSync(parent).some((entry) => entry.startsWith(".reports.next-")));
    await new Promise((resolve) => setTimeout(resolve, 300));
    killed.kill("SIGKILL");
    await killedExit;
    expect(readFileSync(join(out, "index.html"))).toEqual(report);
    expectManifestMatchesFiles();
    expect(existsSync(join(parent, ".reports.lock"))).toBe(true);

    const next = spawnSync(ckpt[0]!, [...ckpt.slice(1), ...args], { encoding: "utf8" });
    expect(next.status, next.stderr).toBe(0);
    expect(next.stderr).toMatch(new RegExp(`removing a stale lock of .*reports \\(pid ${killed.pid} since \\S+ is not running\\)`));
    expect(next.stderr).toMatch(/removing \.reports\.next-\d+, left by an interrupted run/);
    expect(readdirSync(parent)).toEqual(["reports"]);
    expectManifestMatchesFiles();
  }, 180_000);
});
