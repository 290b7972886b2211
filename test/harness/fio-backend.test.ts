/**
 * The fio backend with the real fio (Debian's, installed by test/ensure-system-packages.sh):
 * m fio jobs released together at the barrier, the trace taking fio's own byte count and
 * timings — checked against the JSON report each job leaves next to its image when the sweep
 * keeps its files — through the local launcher and the ssh launcher (a stand-in remote shell:
 * a local sh that runs its last argument, as ssh does).
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runFio } from "../../pipeline/harness/fio-backend";
import { fioArguments, fioBlocks } from "../../pipeline/harness/fio-process-script";
import { parseSweep } from "../../pipeline/harness/parse-sweep";
import { planSweep, type Combination } from "../../pipeline/harness/plan-sweep";
import { runCli } from "../cli-io";
import { temporaryFolder } from "./temp-dir";

const target = temporaryFolder("fio-backend");
const fakeSsh = ["sh", "-c", 'FAKE_NODE="$0"; eval "$1"', "{node}"];

function combination(fields: Record<string, unknown>): Combination {
  return planSweep(parseSweep(JSON.stringify({ backend: "fio", dir: target, m: [2], sizeMb: [2], ...fields }), "s.json", "t")).combinations[0]!;
}

/** A kept fio report's numbers: bytes written, ms of the write phase, report time (ms since the epoch). */
function report(path: string): { bytes: number; runtimeMs: number; timestampMs: number } {
  const json = JSON.parse(readFileSync(path, "utf8"));
  return { bytes: json.jobs[0].write.io_bytes, runtimeMs: json.jobs[0].write.runtime, timestampMs: json.timestamp_ms };
}

describe("fio backend", () => {
  it("one fio job per writer, released together; bytes and times are fio's own", async () => {
    const c = combination({ keepFiles: true });
    const result = await runFio(c);
    expect(result.status, result.status === "failed" ? result.reason : "").toBe("done");
    if (result.status !== "done") return;
    expect(result.processes).toHaveLength(2);
    for (const p of result.processes) {
      const fio = report(join(target, c.id, p.node, "fio.json"));
      // 2 MB = 2·10^6 bytes, written whole.
      expect(fio.bytes).toBe(2_000_000);
      expect(p.ckptBytes).toBe(fio.bytes);
      // The duration is fio's write runtime (ms, end_fsync included); the end its report time.
      expect(Math.round((p.endS - p.startS) * 1000)).toBe(fio.runtimeMs);
      expect(Math.round((p.endS + result.barrierEpochMs / 1000) * 1000)).toBe(fio.timestampMs);
      expect(p.startS).toBeGreaterThanOrEqual(0);
      expect(readFileSync(join(target, c.id, p.node, "image")).length).toBe(2_000_000);
    }
  });

  it("removes its files after the run unless the sweep keeps them", async () => {
    const c = combination({});
    const result = await runFio(c);
    expect(result.status).toBe("done");
    expect(existsSync(join(target, c.id))).toBe(false);
  });

  it("through the ssh launcher: one writer per node", async () => {
    const c = combination({ launcher: "ssh", nodes: ["node-a", "node-b"], remoteShell: fakeSsh });
    const result = await runFio(c);
    expect(result.status, result.status === "failed" ? result.reason : "").toBe("done");
    if (result.status !== "done") return;
    expect(result.processes.map((p) => p.node)).toEqual(["node-a", "node-b"]);
  });

  it("a writer that cannot start fails the run, saying why", async () => {
    const c = combination({ m: [1], dir: "/dev/full/not-a-folder" });
    const result = await runFio(c);
    expect(result.status).toBe("failed");
    if (result.status !== "failed") return;
    expect(result.reason).toMatch(/process 1 \(local-1\): cannot create the folder \/dev\/full\/not-a-folder/);
  });

  it("the sweep's sync, fsyncOnClose and direct become fio's options", () => {
    const base = { dir: "/t", sizeMb: 8, fsyncOnClose: false, direct: false, blockSizeKib: 1024 };
    expect(fioArguments({ ...base, sync: "fsync" })).toEqual([
      "fio", "--name=ckpt", "--filename=/t/image", "--rw=write", "--bs=1000000", "--size=8000000", "--ioengine=psync", "--fallocate=none", "--create_on_open=1", "--end_fsync=1", "--output-format=json", "--output=/t/fio.json",
    ]);
    expect(fioArguments({ ...base, sync: "fsync", fsyncOnClose: true })).toContain("--fsync_on_close=1");
    expect(fioArguments({ ...base, sync: "dsync" })).toContain("--sync=dsync");
    const none = fioArguments({ ...base, sync: "none", direct: true, blockSizeKib: 64 });
    expect(none.filter((a) => /fsync|--sync/.test(a))).toEqual([]);
    expect(none).toContain("--direct=1");
    expect(none).toContain("--bs=65536");
    // fio splits file names at ':'; the folder's are escaped.
    expect(fioArguments({ ...base, dir: "/t:x", sync: "none" })).toContain("--filename=/t\\:x/image");
  });

  it("fio writes whole blocks: the block divides the size, which stays exact without direct", () => {
    expect(fioBlocks(16, 1024, false)).toEqual({ sizeBytes: 16e6, blockBytes: 1e6 });
    expect(fioBlocks(0.5, 1024, false)).toEqual({ sizeBytes: 5e5, blockBytes: 5e5 });
    // 1,234,567 bytes = 127 × 9721: no block count from 2 to 8 divides it, so whole 4 KiB
    // pages, 302 of them (1,236,992 bytes), in 2 blocks of 151 pages.
    expect(fioBlocks(1.234567, 1024, false)).toEqual({ sizeBytes: 1236992, blockBytes: 618496 });
    // O_DIRECT: whole 1 MiB blocks, 16 MB rounded up to 16 MiB.
    expect(fioBlocks(16, 1024, true)).toEqual({ sizeBytes: 16 * 2 ** 20, blockBytes: 2 ** 20 });
  });

  it("ckpt harness run: a fio sweep's trace, read back by ingest as any other", async () => {
    const out = join(target, "sweep-out");
    const sweep = join(target, "fio.json");
    const { writeFileSync } = await import("node:fs");
    writeFileSync(sweep, JSON.stringify({ name: "fio-local", backend: "fio", dir: join(target, "runs"), m: [1, 2], sizeMb: [1], repetitions: 2, order: "grid" }));
    const run = await runCli(["harness", "run", sweep, "--out", out, "--quiet"]);
    expect(run.code, run.stderr).toBe(0);
    const rows = readFileSync(join(out, "trace.csv"), "utf8").trim().split("\n");
    expect(rows[0]).toBe("run_id,node,m,size_mb,ckpt_mb,start_s,end_s,repetition,backend,sync");
    expect(rows.slice(1)).toHaveLength(2 * 1 + 2 * 2);
    for (const row of rows.slice(1)) expect(row.split(",").slice(4, 5).concat(row.split(",").slice(8))).toEqual(["1.000000", "fio", "fsync"]);
    const ingest = await runCli(["ingest", join(out, "trace.csv"), "--out", join(target, "obs.json"), "--json"]);
    expect(JSON.parse(ingest.stdout).series[0].points.map((p: { m: number; count: number }) => [p.m, p.count])).toEqual([[1, 2], [2, 2]]);
  });
});
