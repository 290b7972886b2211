/**
 * Two runs on one --out: a `ckpt pipeline` is refused while another run holds the folder;
 * a run killed mid-way (SIGKILL) leaves the previous report whole, its manifest describing
 * exactly the files present, and the next run takes over its stale lock and cleans up.
 *
 * The run that holds the folder is stopped mid-build by construction, not by timing: a
 * fixture (fixtures/hold-output-folder.ts) takes the folder as the pipeline does, writes
 * into its build folder and waits to be killed, so the test never guesses how long a real
 * run takes to build.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { sha256OfFile } from "../../pipeline/shared/hash";
import { WHOLE_PIPELINE_TIMEOUT_MS } from "../helpers";

const ckpt = [process.execPath, "--import", "tsx", join(__dirname, "..", "harness", "ckpt-from-source.ts")];
const parent = mkdtempSync(join(tmpdir(), "ckpt-concurrent-"));
afterAll(() => rmSync(parent, { recursive: true, force: true }));
const out = join(parent, "reports");
const args = ["pipeline", "--out", out, "--param", "place.simulations=2000", "--param", "schedule.campaign.seeds=5"];

/** The fixture holding `out` mid-build, once it says so. */
async function holdMidBuild(): Promise<ChildProcess> {
  const holder = spawn(process.execPath, ["--import", "tsx", join(__dirname, "fixtures", "hold-output-folder.ts"), out], { stdio: ["ignore", "pipe", "inherit"] });
  await new Promise<void>((resolve, reject) => {
    holder.stdout!.on("data", (chunk: Buffer) => chunk.toString().includes("building") && resolve());
    holder.once("exit", (code) => reject(new Error(`the holder exited (${code}) before building`)));
  });
  return holder;
}

async function kill(holder: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => holder.once("exit", resolve));
  holder.kill("SIGKILL");
  await exited;
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
    const holder = await holdMidBuild();
    const refused = spawnSync(ckpt[0]!, [...ckpt.slice(1), ...args], { encoding: "utf8" });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(new RegExp(`another run holds .*reports since \\S+, pid ${holder.pid} on `));
    await kill(holder);

    const first = spawnSync(ckpt[0]!, [...ckpt.slice(1), ...args], { encoding: "utf8" });
    expect(first.status, first.stderr).toBe(0);
    expect(first.stderr).toMatch(new RegExp(`removing a stale lock of .*reports \\(pid ${holder.pid} since \\S+ is not running\\)`));
    expectManifestMatchesFiles();
    const report = readFileSync(join(out, "index.html"));

    // Killed while building aside, over a report: the report in place is untouched.
    const killed = await holdMidBuild();
    expect(readdirSync(parent).some((entry) => entry.startsWith(".reports.next-"))).toBe(true);
    await kill(killed);
    expect(readFileSync(join(out, "index.html"))).toEqual(report);
    expectManifestMatchesFiles();
    expect(existsSync(join(parent, ".reports.lock"))).toBe(true);

    const next = spawnSync(ckpt[0]!, [...ckpt.slice(1), ...args], { encoding: "utf8" });
    expect(next.status, next.stderr).toBe(0);
    expect(next.stderr).toMatch(new RegExp(`removing a stale lock of .*reports \\(pid ${killed.pid} since \\S+ is not running\\)`));
    expect(next.stderr).toMatch(/removing \.reports\.next-\d+, left by an interrupted run/);
    expect(readdirSync(parent)).toEqual(["reports"]);
    expectManifestMatchesFiles();
  }, WHOLE_PIPELINE_TIMEOUT_MS);
});
