/**
 * The harness on the emulated NFS cluster of test/cluster/nfs-cluster.sh (issue #15): one
 * and two client nodes write their images at once through their own 100 Mbit/s links to
 * the NFS server, as data/traces/nfs-8x100mbit.sweep.json does at full size. Each writer is
 * held to its link (12.5 MB/s, less NFS's overhead), so two writers get about twice the
 * aggregate bandwidth of one: the links are real, and what the trace records is what the
 * server received. Needs root; fails, not skips, when the cluster cannot be started.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projectRoot } from "../../pipeline/shared/version";
import { runCli } from "../cli-io";

const dir = mkdtempSync(join(tmpdir(), "ckpt-nfs-cluster-"));
const source = "/dev/shm/ckpt-lab-nfs-test-src";

beforeAll(() => {
  execFileSync("bash", [join(projectRoot(), "test/cluster/nfs-cluster.sh"), "up", "2"], { stdio: ["ignore", "ignore", "inherit"], timeout: 900_000 });
  execFileSync("bash", ["-c", `mkdir -p ${source} && head -c 16000000 /dev/urandom > ${source}/16.img`]);
}, 900_000);

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(source, { recursive: true, force: true });
});

describe("a sweep on the emulated NFS cluster", () => {
  it("writes through each client's link to the server: two writers, twice the bandwidth of one", async () => {
    const sweep = join(dir, "nfs.json");
    writeFileSync(
      sweep,
      JSON.stringify({
        name: "nfs-test",
        cluster: "nfs-test",
        backend: "command",
        launcher: "ssh",
        remoteShell: ["ip", "netns", "exec", "{node}", "sh", "-c"],
        nodes: ["ckl-c1", "ckl-c2"],
        dir: "/srv/ckpt-lab-nfs/test-runs",
        command: `nfs-cp ${source}/{size_mb}.img 'nfs://10.77.0.1{dir}/image?version=3'`,
        m: [1, 2],
        sizeMb: [16],
        repetitions: 2,
        order: "grid",
      }),
    );
    const out = join(dir, "out");
    const run = await runCli(["harness", "run", sweep, "--out", out, "--quiet"]);
    expect(run.code, run.stderr).toBe(0);
    const rows = readFileSync(join(out, "trace.csv"), "utf8").trim().split("\n").slice(1).map((line) => line.split(","));
    expect(rows).toHaveLength(2 * 1 + 2 * 2);
    // What the server received: 16 MB per process (the image's size under its folder on the export).
    for (const row of rows) expect(Number(row[4])).toBe(16);
    const aggregate = (m: number) => {
      const byRun = new Map<string, number>();
      for (const [runId, , rowM, , ckptMb, start, end] of rows) if (Number(rowM) === m) byRun.set(runId!, (byRun.get(runId!) ?? 0) + Number(ckptMb) / (Number(end) - Number(start)));
      return [...byRun.values()].reduce((a, b) => a + b, 0) / byRun.size;
    };
    // One writer: at most its link's 12.5 MB/s; two: each its own link (the server takes 50 MB/s).
    expect(aggregate(1)).toBeLessThan(12.5);
    expect(aggregate(1)).toBeGreaterThan(6);
    expect(aggregate(2) / aggregate(1)).toBeGreaterThan(1.6);
    expect(aggregate(2) / aggregate(1)).toBeLessThan(2.2);
  }, 300_000);
});
