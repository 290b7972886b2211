/** The `ckpt` dispatcher: help, version, unknown commands, and how errors are reported. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { runCli } from "./cli-io";

const COMMANDS = ["harness", "synth", "ingest", "fit", "peaks", "schedule", "campaign", "place", "pipeline", "notebook"];

describe("ckpt", () => {
  it("lists every command with its summary on --help (exit 0), and on a bare call (exit 2)", async () => {
    const help = await runCli(["--help"]);
    expect(help.code).toBe(0);
    for (const name of COMMANDS) expect(help.stdout).toMatch(new RegExp(`^  ${name} +\\S`, "m"));
    const bare = await runCli([]);
    expect(bare.code).toBe(2);
    expect(bare.stdout).toBe(help.stdout);
  });

  it("prints the package's version", async () => {
    const { version } = JSON.parse(readFileSync("package.json", "utf8")) as { version: string };
    expect(await runCli(["--version"])).toEqual({ code: 0, stdout: `${version}\n`, stderr: "" });
  });

  it("refuses an unknown command with exit 2 and the list of commands", async () => {
    const { code, stderr } = await runCli(["fitt"]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/unknown command "fitt"\. Commands: harness, synth, .*notebook\./);
  });

  it("reports a usage error once prefixed, with the way to the command's help (exit 2)", async () => {
    const { code, stderr } = await runCli(["peaks", "--nope"]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^ckpt peaks: Unknown option '--nope'/);
    expect(stderr).not.toMatch(/ckpt peaks: ckpt peaks/);
    expect(stderr).toContain('Run "ckpt peaks --help" for usage.');
  });

  it("reports bad input with exit 1 and no stack trace", async () => {
    const { code, stderr } = await runCli(["peaks", "--model", "paper", "--sizes", "105,-3"]);
    expect(code).toBe(1);
    expect(stderr).toMatch(/^ckpt peaks: application size 2 is -3 MB/);
    expect(stderr).not.toMatch(/\n\s+at /);
  });
});
