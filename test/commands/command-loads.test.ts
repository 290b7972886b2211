/**
 * A command loads what it uses: no drawing, PDF or DataFrame library on the path of a
 * command that does not draw (the report stage loads its renderers only when it runs, the
 * notebooks their DataFrames). Each command's --help runs in a fresh process, which then
 * lists the packages it loaded.
 */
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { COMMANDS } from "../../pipeline/cli";

const DRAWING = ["vega", "vega-lite", "@resvg/resvg-js", "pdfkit", "svg-to-pdfkit", "fontkit", "danfojs", "@tensorflow/tfjs", "ajv"];

const LOADED = `
const { main } = require("./pipeline/cli");
main(process.argv.slice(1), { stdout() {}, stderr() {} }).then(() => {
  const packages = new Set();
  for (const path of Object.keys(require.cache)) {
    const at = path.lastIndexOf("node_modules/");
    if (at < 0) continue;
    const parts = path.slice(at + "node_modules/".length).split("/");
    packages.add(parts[0].startsWith("@") ? parts[0] + "/" + parts[1] : parts[0]);
  }
  process.stdout.write(JSON.stringify([...packages].sort()));
});`;

describe("what a command loads", () => {
  it("no command loads a drawing, PDF or DataFrame package to start (not even pipeline, until its report stage runs)", () => {
    for (const name of Object.keys(COMMANDS)) {
      const output = execFileSync(process.execPath, ["--import", "tsx", "-e", LOADED, "--", name, "--help"], { encoding: "utf8" });
      const packages = JSON.parse(output) as string[];
      expect({ name, drawing: packages.filter((p) => DRAWING.includes(p)) }).toEqual({ name, drawing: [] });
    }
  }, 120_000);
});
