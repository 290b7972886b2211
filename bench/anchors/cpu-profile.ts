/**
 * Where a process's main thread spends its time, from V8's sampling profiler: run a command
 * under `node --cpu-prof` and sum the samples' self time into named groups, the first group
 * whose pattern matches a sample's function and file taking it. What the benchmark prints
 * for a line that misses its target.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execFileSync } from "node:child_process";

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string } }[];
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileGroup {
  name: string;
  /** Tested against "<function> <file url>"; special frames are "(idle)", "(garbage collector)", "(program)". */
  pattern: RegExp;
}

/** Milliseconds of the main thread per group (and "other"), in the groups' order, and the total. */
export function profileMainThread(args: string[], groups: ProfileGroup[]): { totalMs: number; groups: { name: string; ms: number }[] } {
  const folder = mkdtempSync(join(tmpdir(), "ckpt-bench-profile-"));
  try {
    execFileSync(process.execPath, ["--cpu-prof", "--cpu-prof-dir", folder, ...args], { stdio: "ignore" });
    // One file per thread; the main thread's is numbered 0 (CPU.<date>.<time>.<pid>.0.<seq>.cpuprofile).
    const main = readdirSync(folder).find((name) => /\.\d+\.0\.\d+\.cpuprofile$/.test(name));
    if (main === undefined) throw new Error(`node --cpu-prof wrote no profile of the main thread in ${folder}`);
    const profile = JSON.parse(readFileSync(join(folder, main), "utf8")) as CpuProfile;
    const labelOf = new Map(profile.nodes.map((n) => [n.id, `${n.callFrame.functionName} ${n.callFrame.url}`]));
    const ms = new Map<string, number>([...groups.map((g) => [g.name, 0] as [string, number]), ["other", 0]]);
    let total = 0;
    profile.samples.forEach((id, i) => {
      const label = labelOf.get(id) ?? "";
      const group = groups.find((g) => g.pattern.test(label))?.name ?? "other";
      const deltaMs = profile.timeDeltas[i]! / 1000;
      ms.set(group, ms.get(group)! + deltaMs);
      total += deltaMs;
    });
    return { totalMs: total, groups: [...ms].map(([name, value]) => ({ name, ms: value })) };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** "scan 320 ms, waiting 270 ms, …" */
export function formatProfile(profile: { groups: { name: string; ms: number }[] }): string {
  return profile.groups.map((g) => `${g.name} ${g.ms.toFixed(0)} ms`).join(", ");
}
