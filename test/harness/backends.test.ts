import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { blcrImageLayout } from "../../pipeline/harness/blcr-image";
import { runCommand } from "../../pipeline/harness/command-backend";
import { runEmulated } from "../../pipeline/harness/emulate-backend";
import { harnessScriptArgv } from "../../pipeline/harness/node-script";
import { parseSweep } from "../../pipeline/harness/parse-sweep";
import { planSweep, type Combination } from "../../pipeline/harness/plan-sweep";
import { shellJoin } from "../../pipeline/harness/shell-quote";
import { survivorsMentioning } from "./processes";
import { temporaryFolder } from "./temp-dir";

const target = temporaryFolder("backends");

function combination(fields: Record<string, unknown>): Combination {
  return planSweep(parseSweep(JSON.stringify({ dir: target, m: [2], sizeMb: [0.5], ...fields }), "s.json", "t")).combinations[0]!;
}

/** The emulator and the memory holder as shell command lines (the "command" of a template). */
const emulator = shellJoin(harnessScriptArgv("emulate-worker"));
const hold = shellJoin(harnessScriptArgv("hold-app"));
/** Behaves like ssh for the launcher: runs its last argument with a shell, here. */
const fakeSsh = ["sh", "-c", 'FAKE_NODE="$0"; eval "$1"', "{node}"];

describe("emulate backend", () => {
  it("runs m worker processes released together and times each image", async () => {
    const c = combination({ backend: "emulate" });
    let pids: number[] = [];
    const result = await runEmulated(c, { onReady: (p) => (pids = p) });
    expect(result.status).toBe("done");
    if (result.status !== "done") return;
    expect(new Set(pids).size).toBe(2);
    expect(pids).not.toContain(process.pid);
    for (const p of result.processes) {
      expect(p.ckptBytes).toBe(blcrImageLayout(0.5).bytes);
      expect(p.startS).toBeGreaterThanOrEqual(0);
      expect(p.endS).toBeGreaterThan(p.startS);
    }
    expect(existsSync(join(target, c.id))).toBe(false); // images removed after the run
  });

  it("fails the run when a worker is killed, keeps every process's exit, and leaves no process behind", async () => {
    const c = combination({ backend: "emulate" });
    let pids: number[] = [];
    const result = await runEmulated(c, {
      onReady: (p) => {
        pids = p;
        process.kill(p[1]!, "SIGKILL");
      },
    });
    expect(result.status).toBe("failed");
    if (result.status !== "failed") return;
    expect(result.reason).toBe("process 2 (local-2) killed by SIGKILL");
    expect(result.logs.map((l) => l.exit)).toContain("killed by SIGKILL");
    for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow();
  });

  it("stops workers that outlive the run's timeout", async () => {
    // The workers are stopped (SIGSTOP) once ready, so they outlive any timeout however fast
    // the machine writes; the timer may also fire before they are ready: killed all the same.
    const result = await runEmulated(combination({ backend: "emulate", timeoutS: 0.05 }), { onReady: (pids) => pids.forEach((pid) => process.kill(pid, "SIGSTOP")) });
    expect(result.status === "failed" && result.reason).toBe(`timed out after 0.05 s (the sweep's "timeoutS")`);
    expect(result.logs.every((log) => log.exit === "killed by SIGKILL")).toBe(true);
  });

  it("runs the emulator on nodes through a remote shell with the same barrier", async () => {
    const c = combination({ backend: "emulate", launcher: "ssh", nodes: ["n1", "n2"], remoteShell: fakeSsh });
    const result = await runEmulated(c);
    expect(result.status === "done" ? result.processes.map((p) => [p.node, p.ckptBytes]) : result.reason).toEqual([
      ["n1", blcrImageLayout(0.5).bytes],
      ["n2", blcrImageLayout(0.5).bytes],
    ]);
  });
});

describe("command backend", () => {
  it("fills {node} {pid} {size_mb} {dir} per process, with the emulator as the checkpoint command", async () => {
    const c = combination({
      backend: "command",
      app: `${hold} --size-mb {size_mb}`,
      command: `${emulator} --size-mb {size_mb} --file {dir}/context.{pid} && ls {dir} > {dir}/../listing.{node}`,
      keepFiles: true,
    });
    const result = await runCommand(c);
    expect(result.status === "failed" ? result.reason : "done").toBe("done");
    if (result.status !== "done") return;
    for (const p of result.processes) {
      // The image plus the (empty) listing file written while it was taken.
      expect(p.ckptBytes).toBe(blcrImageLayout(0.5).bytes);
      expect(p.endS).toBeGreaterThan(p.startS);
      const files = readdirSync(join(target, c.id, p.node));
      expect(files).toHaveLength(1);
      expect(files[0]).toMatch(/^context\.\d+$/);
      // {pid} was the application's pid: a live process then, a different one per node.
      expect(Number(files[0]!.split(".")[1])).not.toBe(process.pid);
    }
    expect(readdirSync(join(target, c.id)).filter((f) => f.startsWith("listing."))).toEqual(["listing.localhost"]);
  });

  it("launches over a remote shell with {node} filled", async () => {
    const c = combination({ backend: "command", launcher: "ssh", nodes: ["n1", "n2"], remoteShell: fakeSsh, command: `${emulator} --size-mb {size_mb} --file {dir}/img.{node} --sync none` });
    const result = await runCommand(c);
    expect(result.status === "done" ? result.processes.map((p) => p.node) : result.reason).toEqual(["n1", "n2"]);
    expect(result.logs[0]!.command).toMatch(/^sh -c .* n1 /);
  });

  it("fails the run with the command's stderr when a command fails or is killed", async () => {
    const failing = await runCommand(combination({ backend: "command", command: "echo 'disk quota exceeded' >&2; exit 3" }));
    // Whichever process reports first names the failure.
    expect(failing.status === "failed" && failing.reason).toMatch(/^process ([12]) \(local-\1\): the checkpoint command exited with status 3: disk quota exceeded$/);
    expect(failing.logs.some((log) => log.stderr.includes("disk quota exceeded"))).toBe(true);
    const killed = await runCommand(combination({ backend: "command", command: "sh -c 'kill -9 $$'" }));
    expect(killed.status === "failed" && killed.reason).toMatch(/the checkpoint command was killed by signal 9/);
  });

  it("kills a command that outlives the run's timeout", async () => {
    // A `sleep 30` that ended by itself would exit 0: signal 9 is the watchdog's.
    const result = await runCommand(combination({ backend: "command", command: "sleep 30", timeoutS: 0.5 }));
    expect(result.status === "failed" && result.reason).toMatch(/the checkpoint command was killed by signal 9/);
  });

  it("leaves no process behind once a run is over: the watchdog's sleep ends with it", async () => {
    // A timeout no other process of the machine sleeps: `sleep 987.125` is the watchdog's.
    const result = await runCommand(combination({ backend: "command", command: "true", timeoutS: 987.125 }));
    expect(result.status).toBe("done");
    expect(await survivorsMentioning("987.125")).toEqual([]);
  });

  it("fails when the application never reaches its size", async () => {
    // 50 MB: far above what `sleep` keeps resident.
    const result = await runCommand(combination({ backend: "command", sizeMb: [50], app: "sleep 30", command: "true {pid}", appReadyTimeoutS: 0.3 }));
    expect(result.status === "failed" && result.reason).toMatch(/did not reach \d+ kB resident within 0.3 s/);
  });
});
