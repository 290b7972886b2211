/**
 * The notebooks in a user's own Jupyter (issue #11): in a fresh HOME, `ckpt notebook
 * install` registers the kernel, then a plain `jupyter nbconvert --to html --execute` from
 * the project root runs every notebook — twice, to show a rerun in place finds nothing left
 * over that breaks it — and every HTML shows its charts as images.
 *
 * The project root here is a copy of notebooks/ next to links to data/, dist/ and
 * node_modules/, so what the notebooks write (notebook 01 saves a model under reports/)
 * stays out of the user's reports/.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listNotebooks } from "../../pipeline/notebook";
import { projectRoot } from "../../pipeline/shared/version";

const root = projectRoot();
const sandbox = mkdtempSync(join(tmpdir(), "ckpt-plain-jupyter-"));
const home = join(sandbox, "home");
const project = join(sandbox, "project");
const env = { ...process.env, HOME: home, JUPYTER_PATH: "", JUPYTER_DATA_DIR: "", JUPYTER_CONFIG_DIR: "", PYDEVD_DISABLE_FILE_VALIDATION: "1" };
for (const name of ["JUPYTER_PATH", "JUPYTER_DATA_DIR", "JUPYTER_CONFIG_DIR"] as const) delete env[name];
afterAll(() => rmSync(sandbox, { recursive: true, force: true }));

beforeAll(() => {
  // Notebooks import dist/ (the built library): build it from the sources under test.
  execFileSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", root], { stdio: "inherit" });
  mkdirSync(home);
  mkdirSync(project);
  cpSync(join(root, "notebooks"), join(project, "notebooks"), { recursive: true, filter: (path) => !path.includes(".ipynb_checkpoints") });
  for (const folder of ["data", "dist", "node_modules"]) symlinkSync(join(root, folder), join(project, folder));
}, 120_000);

describe("notebooks in the user's own Jupyter", () => {
  it("ckpt notebook install registers the kernel where that Jupyter finds it", () => {
    const install = spawnSync(process.execPath, [join(root, "bin", "ckpt.js"), "notebook", "install"], { env, encoding: "utf8" });
    expect(install.status, install.stderr).toBe(0);
    expect(install.stderr).toBe("");
    const spec = JSON.parse(readFileSync(join(home, ".local", "share", "jupyter", "kernels", "tslab", "kernel.json"), "utf8"));
    expect(spec.argv.slice(-3)).toEqual(["kernel", "--config-path", "{connection_file}"]);
    const listed = JSON.parse(execFileSync("jupyter", ["kernelspec", "list", "--json"], { env, encoding: "utf8" }));
    expect(listed.kernelspecs.tslab.resource_dir).toBe(join(home, ".local", "share", "jupyter", "kernels", "tslab"));
  });

  it.each(listNotebooks(root))("%s: plain jupyter nbconvert --to html --execute, twice, shows its charts as images", (name) => {
    const out = join(sandbox, "html");
    for (const run of [1, 2]) {
      const result = spawnSync("jupyter", ["nbconvert", "--to", "html", "--execute", `notebooks/${name}.ipynb`, "--output-dir", out], { cwd: project, env, encoding: "utf8" });
      expect(result.status, `run ${run}: ${result.stderr.slice(-3000)}`).toBe(0);
      const html = readFileSync(join(out, `${name}.html`), "utf8");
      expect(html.match(/<img src="data:image\/png;base64,/g)?.length ?? 0, `run ${run}`).toBeGreaterThan(0);
      // Charts are PNG only: no inline SVG that nbconvert 6.x would strip to empty boxes.
      expect(html).not.toMatch(/<svg[\s>][^]*?<\/svg>/);
      expect(html).not.toMatch(/class="output_subarea output_stream output_stderr|class="[^"]*output_error/);
    }
  }, 300_000);

  it("left nothing beside the notebooks (the HTML went to --output-dir; notebook 01's model to reports/)", () => {
    expect(readdirSync(join(project, "notebooks")).sort()).toEqual(readdirSync(join(root, "notebooks")).sort());
    expect(existsSync(join(project, "reports", "notebooks", "01-model.json"))).toBe(true);
  });
});
