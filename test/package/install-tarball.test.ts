/**
 * The package as a user without the clone gets it: `npm pack`, then `npm install -g
 * --prefix <new folder> ./ckpt-lab-<version>.tgz` (dependencies from the npm registry, no
 * other download), then the commands from an empty folder, with nothing of the source tree
 * on any path: `--help`, a report about a trace made there, the papers' reproduction from
 * the data the package carries, and `ckpt notebook install`, whose copy of notebook 01
 * (danfojs DataFrames) then runs in Jupyter with the kernel it registered.
 *
 * The tarball is packed from a copy of the project's files, so that packing (which builds
 * dist/ anew) never rewrites the dist/ other tests are reading. It fails, never skips, when
 * npm or Jupyter cannot do their part.
 */
import { execFileSync, spawnSync, type SpawnSyncReturns } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projectRoot } from "../../pipeline/shared/version";

const root = projectRoot();
const sandbox = mkdtempSync(join(tmpdir(), "ckpt-tarball-"));
afterAll(() => rmSync(sandbox, { recursive: true, force: true }));
const prefix = join(sandbox, "prefix");
const work = join(sandbox, "work");
const home = join(sandbox, "home");
const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string; files: string[] };
/** PATH without the clone's node_modules/.bin (which npm scripts and vitest put first). */
const path = [join(prefix, "bin"), ...(process.env.PATH ?? "").split(":").filter((p) => !p.includes("node_modules"))].join(":");
const env = { ...process.env, PATH: path, HOME: home, NODE_PATH: "", PYDEVD_DISABLE_FILE_VALIDATION: "1", JUPYTER_PATH: join(work, "jupyter", "share", "jupyter") };
for (const name of ["JUPYTER_DATA_DIR", "JUPYTER_CONFIG_DIR", "npm_config_prefix", "npm_config_global_prefix"]) delete env[name];

function ckpt(args: string[]): SpawnSyncReturns<string> {
  return spawnSync("ckpt", args, { cwd: work, env, encoding: "utf8", maxBuffer: 64 << 20 });
}

beforeAll(() => {
  // The project's own files (what `files` names, package.json, README), beside its installed node_modules.
  const project = join(sandbox, "project");
  mkdirSync(project);
  const entries = new Set(["package.json", "tsconfig.json", "README.md", "bin", ...manifest.files.map((f) => f.split("/")[0]!)]);
  entries.delete("dist"); // built by npm pack (the prepare script)
  for (const entry of entries) cpSync(join(root, entry), join(project, entry), { recursive: true, filter: (p) => !p.includes("node_modules") });
  symlinkSync(join(root, "node_modules"), join(project, "node_modules"));
  const packed = execFileSync("npm", ["pack", "--json", "--pack-destination", sandbox], { cwd: project, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  const tarball = join(sandbox, (JSON.parse(packed) as { filename: string }[])[0]!.filename);
  expect(tarball).toBe(join(sandbox, `ckpt-lab-${manifest.version}.tgz`));
  mkdirSync(work);
  mkdirSync(home);
  // From the empty folder, as the README says (zeromq's install script is the one the dependencies need).
  execFileSync("npm", ["install", "-g", "--prefix", prefix, "--no-audit", "--no-fund", "--allow-scripts=zeromq", tarball], { cwd: work, env, stdio: ["ignore", "ignore", "inherit"] });
}, 600_000);

describe("the packed tarball, installed without the clone", () => {
  it("installs a ckpt that is not a link into the clone, with its dependencies inside the prefix", () => {
    const installed = realpathSync(join(prefix, "bin", "ckpt"));
    expect(installed).toBe(join(prefix, "lib", "node_modules", "ckpt-lab", "bin", "ckpt.js"));
    const packageFolder = join(prefix, "lib", "node_modules", "ckpt-lab");
    expect(readdirSync(packageFolder).sort()).toEqual(["README.md", "bin", "data", "dist", "examples", "node_modules", "notebooks", "package.json", "pipeline"]);
    // danfojs without a native TensorFlow: nothing under the prefix is tfjs-node.
    expect(existsSync(join(packageFolder, "node_modules", "danfojs"))).toBe(true);
    expect(existsSync(join(packageFolder, "node_modules", "@tensorflow", "tfjs-node"))).toBe(false);
  });

  it("--help works from an empty folder", () => {
    const help = ckpt(["--help"]);
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toMatch(new RegExp(`^ckpt ${manifest.version.replace(/\./g, "\\.")} — `));
    const schedule = ckpt(["schedule", "--help"]);
    expect(schedule.status, schedule.stderr).toBe(0);
    expect(schedule.stdout).toContain("--deadline");
  });

  it("writes a report about a trace under the current folder", () => {
    expect(ckpt(["synth", "--shape", "collapse", "--out", "mine.csv"]).status).toBe(0);
    const run = ckpt(["pipeline", "--traces", "mine.csv", "--cluster", "lab-nfs"]);
    expect(run.status, run.stderr.slice(-3000)).toBe(0);
    expect(run.stdout).toContain("Report: reports/index.html");
    expect(readFileSync(join(work, "reports", "index.html"), "utf8")).toContain("lab-nfs");
  }, 300_000);

  it("reproduces the papers from the data the package carries", () => {
    const run = ckpt(["pipeline", "--out", "reproduction"]);
    expect(run.status, run.stderr.slice(-3000)).toBe(0);
    expect(existsSync(join(work, "reproduction", "reproduction.html"))).toBe(true);
    // The kept simulation grids were found (their code version is the shipped sources'): none was recomputed.
    expect(run.stderr).not.toMatch(/simulate-(das06|bkt).*\b(cells? (run|computed))\b/);
  }, 600_000);

  it("ckpt notebook install registers the kernel and copies the notebooks; notebook 01 runs there", () => {
    const install = ckpt(["notebook", "install", "--prefix", "jupyter"]);
    expect(install.status, install.stderr).toBe(0);
    const spec = JSON.parse(readFileSync(join(work, "jupyter", "share", "jupyter", "kernels", "tslab", "kernel.json"), "utf8")) as { argv: string[] };
    expect(spec.argv[1]).toBe(join(prefix, "lib", "node_modules", "ckpt-lab", "node_modules", "tslab", "bin", "tslab"));
    expect(readdirSync(join(work, "notebooks")).filter((f) => f.endsWith(".ipynb"))).toHaveLength(6);
    expect(existsSync(join(work, "data", "traces", "synthetic-azur.csv"))).toBe(true);
    const run = spawnSync("jupyter", ["nbconvert", "--to", "notebook", "--execute", "--ExecutePreprocessor.timeout=600", "--output-dir", "executed", "notebooks/01-recalibrate-bandwidth.ipynb"], { cwd: work, env, encoding: "utf8" });
    expect(run.status, run.stderr.slice(-3000)).toBe(0);
    const executed = JSON.parse(readFileSync(join(work, "executed", "01-recalibrate-bandwidth.ipynb"), "utf8")) as { cells: { outputs?: { output_type: string; name?: string }[] }[] };
    const outputs = executed.cells.flatMap((c) => c.outputs ?? []);
    expect(outputs.filter((o) => o.output_type === "error" || o.name === "stderr")).toEqual([]);
    expect(existsSync(join(work, "reports", "notebooks", "01-model.json"))).toBe(true);
  }, 600_000);
});
