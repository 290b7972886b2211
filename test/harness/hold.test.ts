/**
 * `ckpt harness hold --size-mb N`, as docs/harness.md uses it for the command backend's
 * "app": the process whose pid the template gets ({pid}) must itself hold the N MB (the
 * runner waits for its resident memory to reach 90 % of N, then the checkpointer saves
 * that pid), and killing it must free them (no child left behind).
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ckpt = [process.execPath, "--import", "tsx", join(__dirname, "ckpt-from-source.ts")];

function residentKb(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return match ? Number(match[1]) : 0;
}

function childrenOf(pid: number): string {
  return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim();
}

describe("ckpt harness hold", () => {
  it.runIf(existsSync("/proc/self/task"))("holds the memory in the process it starts, and frees it when killed", async () => {
    const sizeMb = 300;
    const child = spawn(ckpt[0]!, [...ckpt.slice(1), "harness", "hold", "--size-mb", String(sizeMb)], { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    const pid = child.pid!;
    try {
      // The runner's readiness rule (pipeline/harness/process-script.ts): 90 % of the size resident.
      const readyKb = (0.9 * sizeMb * 1e6) / 1024;
      const deadline = Date.now() + 30_000;
      while (residentKb(pid) < readyKb && Date.now() < deadline && child.exitCode === null) await new Promise((r) => setTimeout(r, 100));
      expect(residentKb(pid), stderr).toBeGreaterThanOrEqual(readyKb);
      expect(childrenOf(pid)).toBe("");
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
    } finally {
      // Whatever is left (a child holding the memory, as before the fix), ended by pid.
      for (const orphan of existsSync(`/proc/${pid}`) ? childrenOf(pid).split(/\s+/).filter(Boolean) : []) process.kill(Number(orphan), "SIGKILL");
      if (child.exitCode === null) child.kill("SIGKILL");
    }
  }, 60_000);
});
