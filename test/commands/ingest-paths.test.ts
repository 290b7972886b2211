/**
 * `ckpt ingest` on wrong paths (#12.9): each gives exit 1 and a message that says what is
 * wrong and how to fix it — never a stack trace, a hang, or a file written elsewhere.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../cli-io";

const scratch = mkdtempSync(join(tmpdir(), "ckpt-ingest-paths-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const TRACE = "data/examples/canonical-with-problems.csv";
const out = (name: string) => join(scratch, name);

async function refused(argv: string[], message: RegExp): Promise<void> {
  const { code, stdout, stderr } = await runCli(["ingest", ...argv]);
  expect(code).toBe(1);
  expect(stdout).toBe("");
  expect(stderr).toMatch(message);
  expect(stderr).not.toMatch(/^\s+at /m);
}

describe("ckpt ingest refuses wrong paths with a message", () => {
  it("/dev/null: a character device, not a trace file", async () => {
    await refused(["/dev/null", "--out", out("a.json")], /^ckpt ingest: \/dev\/null is a character device, not a regular file: .*save the data to a file first/);
    expect(existsSync(out("a.json"))).toBe(false);
  });

  it("a FIFO: refused at once, without waiting for a writer", async () => {
    const fifo = join(scratch, "pipe.csv");
    execFileSync("mkfifo", [fifo]);
    await refused([fifo, "--out", out("b.json")], /pipe\.csv is a named pipe \(FIFO\), not a regular file/);
  });

  it("an empty folder", async () => {
    const empty = join(scratch, "empty");
    mkdirSync(empty);
    await refused([empty, "--out", out("c.json")], /empty contains no \.csv files nor host logs/);
  });

  it("an empty file: a trace has at least a header line", async () => {
    const empty = join(scratch, "empty.csv");
    writeFileSync(empty, "");
    await refused([empty, "--out", out("d.json")], /empty\.csv is empty \(0 bytes\); a trace starts with a header line like run_id,node,m/);
    expect(existsSync(out("d.rejects.csv"))).toBe(false);
  });

  it("--out naming a folder, before reading anything and without writing the rejects", async () => {
    const folder = join(scratch, "results");
    mkdirSync(folder);
    await refused([TRACE, "--out", folder], /--out .*results is a folder; give a file name inside it, e\.g\. --out .*results\/results\.json/);
    expect(readdirSync(scratch).filter((name) => name.startsWith("results."))).toEqual([]);
  });

  it("a trace name of 300 characters, and an --out name of 300 characters", async () => {
    await refused([join(scratch, `${"t".repeat(300)}.csv`), "--out", out("e.json")], /is 304 bytes long; file systems allow at most 255 bytes per name/);
    await refused([TRACE, "--out", join(scratch, `${"o".repeat(300)}.json`)], /^ckpt ingest: --out: .*is 305 bytes long; file systems allow at most 255 bytes per name/);
  });

  it("--out naming the input trace, which would be destroyed", async () => {
    const trace = join(scratch, "trace.csv");
    writeFileSync(trace, readFileSync(TRACE));
    await refused([trace, "--out", trace], /--out .*trace\.csv is also an input; writing it would destroy the input/);
    expect(readFileSync(trace)).toEqual(readFileSync(TRACE));
  });

  it("--out under a file, and --rejects equal to --out", async () => {
    await refused([TRACE, "--out", join(TRACE, "o.json")], /canonical-with-problems\.csv is a file, not a folder, so .* cannot be created inside it/);
    await refused([TRACE, "--out", out("f.json"), "--rejects", out("f.json")], /--rejects and --out both name .*f\.json; give two different files/);
  });
});

describe("ckpt ingest --out in a folder that does not exist yet", () => {
  it("leaves no folder behind when the ingest is refused, before or while reading", async () => {
    const badHeader = join(scratch, "bad-header.csv");
    writeFileSync(badHeader, "run,node\n1,2\n");
    await refused(["/dev/null", "--out", join(scratch, "never", "o.json")], /character device/);
    await refused([badHeader, "--out", join(scratch, "never", "o.json")], /bad-header\.csv:1: expected a header with the columns/);
    expect(existsSync(join(scratch, "never"))).toBe(false);
  });

  it("creates the folder and writes both files there", async () => {
    const target = join(scratch, "new", "deeper", "obs.json");
    const { code } = await runCli(["ingest", TRACE, "--out", target]);
    expect(code).toBe(0);
    expect(readdirSync(join(scratch, "new", "deeper")).sort()).toEqual(["obs.json", "obs.rejects.csv"]);
  });
});
