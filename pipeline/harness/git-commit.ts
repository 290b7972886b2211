/** The git commit of the tool that ran a sweep (provenance), or null outside a git checkout. */
import { execFileSync } from "node:child_process";
import { projectRoot } from "../shared/version";

export interface GitCommit {
  commit: string;
  /** Uncommitted changes in the tool's sources when the sweep ran. */
  dirty: boolean;
}

export function gitCommit(root = projectRoot()): GitCommit | null {
  try {
    const git = (...args: string[]) => execFileSync("git", ["-C", root, ...args], { encoding: "utf8", timeout: 5000, stdio: ["ignore", "pipe", "ignore"] }).trim();
    const commit = git("rev-parse", "HEAD");
    const dirty = git("status", "--porcelain", "--untracked-files=no", "--", "pipeline", "bin", "package.json") !== "";
    return { commit, dirty };
  } catch {
    return null;
  }
}
