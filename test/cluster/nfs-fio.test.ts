/**
 * The fio backend against the emulate backend, on the same sweep, on the emulated NFS
 * cluster of test/cluster/nfs-cluster.sh: 1, 2 and 4 client nodes each write one 16 MB
 * checkpoint at once, through their own 100 Mbit/s link, into the export mounted in their
 * mount namespace (nfs-fuse, libnfs under FUSE: this kernel has no NFS client). The links
 * bound both backends alike — at most 12.5 MB/s a writer, about twice as much for two — so
 * they must agree on the order of the bandwidth; what differs is said in docs/harness.md
 * (fio's timing starts at its first write, the emulator's at open; fio's writers start
 * later after the barrier, by fio's own start-up). Needs root; fails, not skips, when the
 * cluster cannot be started.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projectRoot } from "../../pipeline/shared/version";
import { runCli } from "../cli-io";

const dir = mkdtempSync(join(tmpdir(), "ckpt-nfs-fio-"));
const NODES = ["ckl-c1", "ckl-c2", "ckl-c3", "ckl-c4"];

beforeAll(() => {
  execFileSync("bash", [join(projectRoot(), "test/cluster/nfs-cluster.sh"), "up", "4"], { stdio: ["ignore", "ignore", "inherit"], timeout: 900_000 });
}, 900_000);

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  for (const backend of ["fio", "emulate"]) rmSync(`/srv/ckpt-lab-nfs/nfs-fio-test-${backend}`, { recursive: true, force: true });
});

/** The same sweep for both backends: only "backend" (and the run folder) differ. */
function sweep(backend: "fio" | "emulate"): string {
  const path = join(dir, `${backend}.json`);
  writeFileSync(
    path,
    JSON.stringify({
      name: `nfs-${backend}`,
      cluster: "nfs-test",
      backend,
      launcher: "ssh",
      remoteShell: ["nsenter", "--net=/run/netns/{node}", "--mount=/run/ckpt-lab-nfs/mntns/{node}", "sh", "-c"],
      nodes: NODES,
      dir: `/mnt/ckpt-lab-nfs/nfs-fio-test-${backend}`,
      m: [1, 2, 4],
      sizeMb: [16],
      repetitions: 2,
      order: "grid",
    }),
  );
  return path;
}

/** Per m, the mean over runs of the papers' aggregated bandwidth (Σ ckpt_mb / (end − start)). */
function bandwidthByM(rows: string[][]): Map<number, number> {
  const runs = new Map<string, { m: number; bw: number }>();
  for (const [runId, , m, , ckptMb, start, end] of rows) {
    const run = runs.get(runId!) ?? { m: Number(m), bw: 0 };
    run.bw += Number(ckptMb) / (Number(end) - Number(start));
    runs.set(runId!, run);
  }
  const byM = new Map<number, number[]>();
  for (const { m, bw } of runs.values()) byM.set(m, [...(byM.get(m) ?? []), bw]);
  return new Map([...byM].map(([m, values]) => [m, values.reduce((a, b) => a + b, 0) / values.length]));
}

describe("the fio backend on the emulated NFS cluster, against the emulator", () => {
  const traces: Record<string, string[][]> = {};

  it("runs the same sweep with each backend, every writer through its own client", async () => {
    for (const backend of ["fio", "emulate"] as const) {
      const out = join(dir, `out-${backend}`);
      const run = await runCli(["harness", "run", sweep(backend), "--out", out, "--quiet"]);
      expect(run.code, run.stderr).toBe(0);
      const rows = readFileSync(join(out, "trace.csv"), "utf8").trim().split("\n").slice(1).map((line) => line.split(","));
      expect(rows).toHaveLength(2 * (1 + 2 + 4));
      // Writer k of a run is on client k.
      for (const row of rows.filter((r) => r[2] === "4")) expect(NODES).toContain(row[1]);
      traces[backend] = rows;
    }
    // What reached the server: fio its 16·10^6 bytes, the emulator its BLCR image (4 KiB pages, each behind a 4-byte header).
    for (const row of traces.fio!) expect(row[4]).toBe("16.000000");
    for (const row of traces.emulate!) expect(row[4]).toBe("16.018764");
    // fio's own timings: its report time and runtime are whole milliseconds, so are the trace's.
    for (const row of traces.fio!) for (const time of [row[5], row[6]]) expect(time).toMatch(/\.\d{3}000$/);
  }, 600_000);

  it("both are held by the links alike: the same order of bandwidth at every m", () => {
    const fio = bandwidthByM(traces.fio!);
    const emulate = bandwidthByM(traces.emulate!);
    for (const byM of [fio, emulate]) {
      // One writer: at most its link's 12.5 MB/s (less NFS's overhead); two: about twice that.
      expect(byM.get(1)!).toBeLessThan(12.5);
      expect(byM.get(1)!).toBeGreaterThan(6);
      expect(byM.get(2)! / byM.get(1)!).toBeGreaterThan(1.6);
      expect(byM.get(2)! / byM.get(1)!).toBeLessThan(2.2);
      // Four: each its own link, the server's 50 MB/s just reached.
      expect(byM.get(4)!).toBeLessThan(50);
      expect(byM.get(4)! / byM.get(1)!).toBeGreaterThan(2.8);
    }
    for (const m of [1, 2, 4]) {
      const ratio = fio.get(m)! / emulate.get(m)!;
      expect(ratio).toBeGreaterThan(0.8);
      expect(ratio).toBeLessThan(1.25);
    }
  });
});
