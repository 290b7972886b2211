/**
 * `npm run bench -- simulate-bkt`: the [BKT] simulator at the paper's largest setting
 * (docs/science.md §6.4): 10^4 jobs on 2·10^4 clients, one replication, on one core.
 * Targets: none and Daly periodic together ≤ 20 s; the DP policy (PCkP) ≤ 2 minutes; with a
 * measured checkpoint server (docs/science.md §6.6: the model fitted to the shipped NFS trace,
 * data/traces/nfs-8x100mbit.csv, shared as a fluid by up to 100 connections) none and periodic
 * together ≤ 30 s. Prints each policy's time (wall-clock and CPU: the CPU time says how much
 * of a loaded machine's wall-clock was the run's), events and events/s, the DP's calls, cache
 * hits and share of the run, the measured server's transfers, and the ratio to the target.
 *
 * One run each (a run is tens of seconds; the machine line says how loaded it may be).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fitBandwidthModel } from "../pipeline/fit/fit-bandwidth-model";
import { ingestFiles } from "../pipeline/ingest/ingest-files";
import { writeJsonAtomic } from "../pipeline/shared/atomic-write";
import { projectRoot } from "../pipeline/shared/version";
import { BKT_PAPER_PRESET, type BktScenario } from "../pipeline/simulate/bkt/bkt-scenario";
import { simulateBkt } from "../pipeline/simulate/bkt/bkt-simulator";
import { printTable } from "./harness";

export default async function bench(): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), "ckpt-bench-bkt-"));
  try {
    const model = join(folder, "nfs-model.json");
    const { observations, inputs } = await ingestFiles([join(projectRoot(), "data/traces/nfs-8x100mbit.csv")], { strict: false });
    writeJsonAtomic(model, fitBandwidthModel(observations, undefined, inputs).model);
    const measured: BktScenario["server"] = { model, connections: 100, outsideDomain: "clamp", volume: "whole" };
    const rows: (string | number)[][] = [];
    const total = { link: 0, measured: 0 };
    for (const [policy, server] of [["none", null], ["periodic", null], ["pckp", null], ["none", measured], ["periodic", measured]] as const) {
      const started = performance.now();
      const cpu = process.cpuUsage();
      const report = await simulateBkt({ ...BKT_PAPER_PRESET, clients: 20_000, jobs: 10_000, policies: [policy], ...(server ? { server } : {}) });
      const seconds = (performance.now() - started) / 1000;
      const used = process.cpuUsage(cpu);
      const run = report.runs[0]!;
      if (policy !== "pckp") total[server ? "measured" : "link"] += seconds;
      rows.push([
        policy,
        server ? "measured (NFS fit)" : "link",
        seconds.toFixed(1),
        ((used.user + used.system) / 1e6).toFixed(1),
        run.events,
        (run.events / seconds / 1e6).toFixed(2),
        run.makespanS === null ? "unfinished" : (run.makespanS / 3600).toFixed(1),
        run.dpCalls,
        run.dpCacheHits,
        run.server ? `${run.server.transfers} (${run.server.transfersOutsideDomain} outside)` : "",
        policy === "pckp" ? `${(seconds / 120).toFixed(2)} of 120 s` : "",
      ]);
    }
    printTable(
      "[BKT] simulator, 20 000 clients, 10 000 jobs, one replication, one core",
      ["policy", "server", "seconds", "CPU s", "events", "M events/s", "makespan h", "DP calls", "DP cache hits", "server transfers", "time / target"],
      rows,
    );
    console.log(`none + periodic: ${total.link.toFixed(1)} s (target ≤ 20 s: ${(total.link / 20).toFixed(2)} of it)`);
    console.log(`none + periodic with the measured server: ${total.measured.toFixed(1)} s (target ≤ 30 s: ${(total.measured / 30).toFixed(2)} of it)`);
    console.log("events/s here include the policies' planning; the engine alone: npm run bench -- simulate-engine");
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
