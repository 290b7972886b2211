/**
 * What the tests on live schedulers share: running a command (as root or as the cluster's
 * job user), waiting for a state, and a work folder the job user can write. The clusters
 * come from test/cluster/slurm.sh and oar.sh; a test that cannot start one fails.
 */
import { execFileSync } from "node:child_process";
import { chownSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { projectRoot } from "../../pipeline/shared/version";
import { runCli } from "../cli-io";

/** OAR runs a job as the user who submitted it; oar.sh creates this one (root may not submit). */
export const JOB_USER = "ckptuser";

/** Runs a command; in `cwd` with PWD set to it (oarsub takes the job's folder from PWD, not from the process's cwd). */
export const sh = (command: string, args: string[], cwd?: string): string =>
  execFileSync(command, args, { encoding: "utf8", timeout: 300_000, cwd, env: cwd === undefined ? process.env : { ...process.env, PWD: cwd } }).trim();

export const asUser = (command: string, args: string[], cwd: string): string => sh("runuser", ["-u", JOB_USER, "--", command, ...args], cwd);

export function clusterUp(script: "slurm" | "oar", env: Record<string, string> = {}): void {
  execFileSync("bash", [join(projectRoot(), "test/cluster", `${script}.sh`), "up"], { encoding: "utf8", timeout: 900_000, env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "inherit"] });
}

export async function waitFor(what: string, ok: () => boolean, seconds = 120): Promise<void> {
  const until = Date.now() + seconds * 1000;
  while (!ok()) {
    if (Date.now() > until) throw new Error(`timed out after ${seconds} s waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

const home = (user: string) => sh("getent", ["passwd", user]).split(":")[5]!;
const uid = (user: string) => Number(sh("id", ["-u", user]));
const gid = (user: string) => Number(sh("id", ["-g", user]));

/**
 * A fresh folder in the job user's home, owned by them. Not under /tmp: OAR's cgroup job
 * manager deletes the job user's files in /tmp, /var/tmp and /dev/shm when their last job ends.
 */
export function userWorkDir(prefix: string): string {
  const base = join(home(JOB_USER), "ckpt-lab-tests");
  mkdirSync(base, { recursive: true });
  chownSync(base, uid(JOB_USER), gid(JOB_USER));
  const dir = mkdtempSync(join(base, prefix));
  chownSync(dir, uid(JOB_USER), gid(JOB_USER));
  return dir;
}

export const chownToUser = (path: string): void => void sh("chown", ["-R", `${JOB_USER}:`, path]);

export const removeDir = (dir: string): void => rmSync(dir, { recursive: true, force: true });

/**
 * The command that runs this project's built ckpt as the job user: this checkout where they
 * can read it, else a copy in their home (hard links where the file system allows), as a
 * user whose jobs see the project over NFS would have it.
 */
export function ckptForUser(): string[] {
  const root = projectRoot();
  const readable = (args: string[]) => {
    try {
      execFileSync("runuser", ["-u", JOB_USER, "--", ...args], { stdio: "ignore", timeout: 60_000 });
      return true;
    } catch {
      return false;
    }
  };
  let node = process.execPath;
  if (!readable([node, "-e", "0"])) {
    node = join(home(JOB_USER), "ckpt-lab-node");
    cpSync(process.execPath, node);
    chownToUser(node);
  }
  if (readable([node, join(root, "bin/ckpt.js"), "--version"])) return [node, join(root, "bin/ckpt.js")];
  const copy = join(home(JOB_USER), "ckpt-lab-under-test");
  rmSync(copy, { recursive: true, force: true });
  mkdirSync(copy);
  for (const part of ["package.json", "bin", "dist", "node_modules"]) {
    try {
      sh("cp", ["-al", join(root, part), join(copy, part)]);
    } catch {
      sh("cp", ["-a", join(root, part), join(copy, part)]);
    }
  }
  // Hard links keep root as the files' owner; they are readable, and the folders are new.
  return [node, join(copy, "bin/ckpt.js")];
}

/** The simulation sweep both schedulers run as a three-task job array: 9 cells of [DAS06] runs, seconds each. */
export const ARRAY_SWEEP_SPEC = { simulator: "das06", parameters: { tasks: 5, startTimes: [0, 3600, 7200], synthetic: { seed: 1, machines: 32, days: 9 } }, axes: [{ name: "checkpoints", values: [0, 1, 9] }], seeds: [1, 2] };

/** The harness sweep the resume tests interrupt: 3 repetitions of m = 1 and m = 2, a pause of 1 s before each run. */
export const RESUMED_SWEEP = { m: [1, 2], sizeMb: [1], repetitions: 3, pauseS: 1, order: "grid" };

/** Each run of RESUMED_SWEEP in the trace exactly once: 3 runs of one row (m = 1) and 3 of two rows (m = 2). */
export function expectEachRunOnce(traceRows: string[]): void {
  const runs = traceRows.map((row) => row.split(",")[0]);
  expect(new Set(runs).size).toBe(6);
  expect(runs).toHaveLength(3 * 1 + 3 * 2);
}

/** The array's merged table is byte for byte the one a single process gives for the same spec. */
export async function expectMergeAsOneProcess(spec: string, arrayOut: string, scratch: string): Promise<void> {
  expect((await runCli(["simulate", "merge", spec, "--out", arrayOut])).code).toBe(0);
  const oneOut = join(scratch, "one-out");
  expect((await runCli(["simulate", "sweep", spec, "--out", oneOut, "--quiet"])).code).toBe(0);
  expect((await runCli(["simulate", "merge", spec, "--out", oneOut])).code).toBe(0);
  expect(readFileSync(join(arrayOut, "merged.csv"), "utf8")).toBe(readFileSync(join(oneOut, "merged.csv"), "utf8"));
}
