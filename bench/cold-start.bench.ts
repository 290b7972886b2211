/**
 * Cold starts of the built CLI with Node's compile cache off and on (bin/ckpt.js enables it
 * on Node ≥ 22.8): `ckpt --help`, one `ckpt schedule` and `ckpt pipeline --force` on the
 * shipped traces, each a fresh process, under the newest LTS (test/newest-lts-node.sh
 * installs it) and, for reference, under this machine's Node when it has no cache.
 *
 * "on" runs with a cache that an earlier run of the same command filled (the case of a
 * user's second and later runs); "off" with NODE_DISABLE_COMPILE_CACHE=1, which Node
 * honours over module.enableCompileCache(). Modes alternate round by round so that a load
 * change on the shared machine hits them alike; medians.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, formatMs, timeProcess } from "./anchors/anchor";
import { median, printTable, type Benchmark } from "./harness";

interface Work {
  name: string;
  args: (out: string) => string[];
  runs: number;
}

const WORK: Work[] = [
  { name: "ckpt --help", args: () => ["--help"], runs: 15 },
  { name: "ckpt schedule (family A, T = 180 s)", args: () => ["schedule", "--model", "paper", "--apps", "data/schedule/family-a-seed-1.csv", "--deadline", "180"], runs: 15 },
  { name: "ckpt pipeline --force", args: (out) => ["pipeline", "--force", "--out", out], runs: 5 },
];

const coldStart: Benchmark = async () => {
  execFileSync(process.execPath, [join(ROOT, "bin", "build.js")], { stdio: "inherit" });
  const newest = execFileSync("bash", [join(ROOT, "test", "newest-lts-node.sh")], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim();
  const nodes = [newest, ...(process.execPath === newest ? [] : [process.execPath])];
  const scratch = mkdtempSync(join(tmpdir(), "ckpt-cold-start-"));
  const rows: (string | number)[][] = [];
  try {
    const out = join(scratch, "report");
    for (const node of nodes) {
      const version = execFileSync(node, ["--version"], { encoding: "utf8" }).trim();
      const hasCache = execFileSync(node, ["-p", "typeof require('node:module').enableCompileCache"], { encoding: "utf8" }).trim() === "function";
      const cache = join(scratch, `cache-${version}`);
      const modes = hasCache
        ? { off: { NODE_DISABLE_COMPILE_CACHE: "1" }, on: { NODE_COMPILE_CACHE: cache } }
        : { off: {} };
      for (const work of WORK) {
        const run = (env: Record<string, string>) => timeProcess(node, [join(ROOT, "bin", "ckpt.js"), ...work.args(out)], { env: { ...process.env, ...env } });
        // Untimed: fills the cache, warms the file cache, and gives the pipeline a report to force.
        for (const env of Object.values(modes)) run(env);
        const times: Record<string, number[]> = {};
        for (let r = 0; r < work.runs; r++) {
          for (const [mode, env] of Object.entries(modes)) (times[mode] ??= []).push(run(env));
        }
        const off = median(times.off!);
        const on = times.on !== undefined ? median(times.on) : null;
        rows.push([work.name, version, formatMs(off), on === null ? "— (no compile cache)" : formatMs(on), on === null ? "—" : `${(on / off).toFixed(2)}×`, work.runs]);
      }
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  printTable("cold starts of the built CLI, fresh processes, compile cache off and on (medians)", ["work", "node", "cache off", "cache on", "on / off", "runs"], rows);
};

export default coldStart;
