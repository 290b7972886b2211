import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../cli-io";
import { temporaryFolder } from "./temp-dir";

const root = temporaryFolder("cli");

const ckpt = (...argv: string[]) => runCli(argv);

function sweepFile(name: string, value: unknown): string {
  const path = join(root, name);
  writeFileSync(path, typeof value === "string" ? value : JSON.stringify(value));
  return path;
}

describe("ckpt harness", () => {
  it("has --help with the sweep format and every subcommand", async () => {
    const { code, stdout } = await ckpt("harness", "--help");
    expect(code).toBe(0);
    for (const text of ["ckpt harness run <sweep.json> --out <dir>", "--resume", "ckpt harness batch", '"repetitions": 3 }', "sizeSetsMb"]) expect(stdout).toContain(text);
  });

  it("exits 2 on usage errors, saying what was expected", async () => {
    expect(await ckpt("harness")).toMatchObject({ code: 2, stderr: expect.stringMatching(/expected a subcommand: run, plan, status, batch, emulate, hold/) });
    expect(await ckpt("harness", "run")).toMatchObject({ code: 2, stderr: expect.stringMatching(/missing required option --out/) });
    expect(await ckpt("harness", "run", "--out", root)).toMatchObject({ code: 2, stderr: expect.stringMatching(/takes one sweep file, got none/) });
    const path = sweepFile("ok.json", { backend: "emulate", m: [1], sizeMb: [1] });
    expect(await ckpt("harness", "run", path)).toMatchObject({ code: 2, stderr: expect.stringMatching(/missing required option --out/) });
    expect(await ckpt("harness", "plan", path, "--out", "x")).toMatchObject({ code: 2, stderr: expect.stringMatching(/--out does not apply to "ckpt harness plan"/) });
    expect(await ckpt("harness", "batch", path, "--scheduler", "pbs", "--out", root, "--nodes", "2", "--walltime", "1:00:00")).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/--scheduler must be one of oar, slurm; got "pbs"/),
    });
  });

  it("exits 1 on an invalid sweep file, naming the file and the field", async () => {
    const path = sweepFile("bad.json", { backend: "emulate", m: [1, 2], sizeMb: [8, "32"] });
    const { code, stderr } = await ckpt("harness", "plan", path);
    expect(code).toBe(1);
    expect(stderr).toContain(`${path}: "sizeMb" must be a size in MB (10^6 bytes, > 0) or a non-empty array of them; found [8,"32"]. Example: "sizeMb": [8, 32]`);
  });

  it("plans a sweep as a table or as JSON", async () => {
    const path = sweepFile("plan.json", { backend: "emulate", m: [1, 2], sizeMb: [8, 32], repetitions: 2, order: "grid" });
    const table = await ckpt("harness", "plan", path);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/plan\.m2-s32-r2 +emulate +2 +32 MB +fsync +2/);
    expect(table.stdout).toContain("8 runs (order: grid), 12 process checkpoints, 0.24 GB written in all.\nThe largest run writes 0.06 GB at once (free space needed in the target) and needs 0.06 GB of memory on this machine.");
    const json = JSON.parse((await ckpt("harness", "plan", path, "--json")).stdout);
    expect(json.combinations).toHaveLength(8);
  });

  it("writes an OAR script the user submits, refusing a reservation too small for the sweep", async () => {
    const path = sweepFile("cluster.json", { backend: "emulate", dir: "/home/u/ckpt-target", m: { from: 1, to: 4 }, sizeMb: [8] });
    const out = join(root, "cluster-out");
    const small = await ckpt("harness", "batch", path, "--scheduler", "oar", "--out", out, "--nodes", "3", "--walltime", "1:00:00");
    expect(small).toMatchObject({ code: 1, stderr: expect.stringMatching(/runs of m = 4 processes .* reserve at least 4 nodes/) });
    const ok = await ckpt("harness", "batch", path, "--scheduler", "oar", "--out", out, "--nodes", "4", "--walltime", "1:00:00", "--ckpt", "ckpt");
    expect(ok.code).toBe(0);
    const script = join(out, "job.oar.sh");
    expect(ok.stdout).toContain(`oarsub -S ${script}`);
    expect(statSync(script).mode & 0o111).not.toBe(0);
    expect(readFileSync(script, "utf8")).toContain(`exec ckpt harness run ${path} --out ${out} --resume`);
    // #12.5: a newline in a value never reaches a header line (it would start a command).
    const injected = await ckpt("harness", "batch", path, "--scheduler", "slurm", "--out", out, "--nodes", "4", "--walltime", "1:00:00", "--queue", "big\n#SBATCH --wrap=rm");
    expect(injected).toMatchObject({ code: 1, stderr: expect.stringMatching(/--queue "big\\n#SBATCH --wrap=rm" goes into the scheduler's header lines, which cannot hold spaces or control characters/) });
    const spaced = await ckpt("harness", "batch", path, "--scheduler", "oar", "--out", join(root, "with space"), "--nodes", "4", "--walltime", "1:00:00");
    expect(spaced.code).toBe(1);
    expect(existsSync(join(root, "with space"))).toBe(false);
  });

  it("runs a sweep, reports it, and shows its status", async () => {
    const path = sweepFile("tiny.json", { backend: "emulate", dir: join(root, "target"), m: [1], sizeMb: [0.5] });
    const out = join(root, "tiny-out");
    const run = await ckpt("harness", "run", path, "--out", out, "--quiet");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`sweep "tiny": 1 of 1 runs done, 0 failed, 0 to do (1 run now)`);
    const status = await ckpt("harness", "status", "--out", out);
    expect(status.stdout).toMatch(/sweep "tiny": 1 runs — 1 done, 0 failed, 0 running, 0 to do\nno runner is working on it now/);
    expect(await ckpt("harness", "status", "--out", join(root, "nothing"))).toMatchObject({ code: 1, stderr: expect.stringMatching(/holds no sweep \(no plan\.json\)/) });
    // A folder whose plan.json is something else (here, a sweep file) is refused, not misread.
    expect(await ckpt("harness", "status", "--out", root)).toMatchObject({ code: 1, stderr: expect.stringMatching(/plan\.json is not a harness plan/) });
  });
});

describe("ckpt harness emulate", () => {
  it("takes one emulated checkpoint and reports its bytes and seconds", async () => {
    const file = join(root, "one.img");
    const { code, stdout } = await ckpt("harness", "emulate", "--size-mb", "0.1", "--file", file, "--sync", "dsync");
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ file, bytes: 102_564, seconds: expect.any(Number) });
    expect(statSync(file).size).toBe(102_564);
    expect(await ckpt("harness", "emulate", "--size-mb", "0", "--file", file)).toMatchObject({ code: 2, stderr: expect.stringMatching(/--size-mb expects a size in MB/) });
    const full = await ckpt("harness", "emulate", "--size-mb", "0.1", "--file", "/dev/full");
    expect(full).toMatchObject({ code: 1, stderr: expect.stringMatching(/ENOSPC/) });
  });
});
