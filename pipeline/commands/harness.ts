/**
 * `ckpt harness`: run checkpoint-bandwidth measurement campaigns (docs/science.md §3.1) and write
 * the traces the ingest stage reads. Subcommands: run, plan, status, batch, emulate, hold.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { writeFileAtomic } from "../shared/atomic-write";
import { InputError, UsageError } from "../shared/errors";
import { defineCommand, type CommandIo } from "../command-line/command";
import { formatNumber, formatTable } from "../shared/format-table";
import { ingestFiles } from "../ingest/ingest-files";
import { projectRoot } from "../shared/version";
import { batchScript, type Scheduler } from "../harness/batch-script";
import { holdMemory } from "../harness/hold-app";
import { harnessScriptArgv, type HarnessScriptName } from "../harness/node-script";
import { MAX_DURATION_S, parseSweep } from "../harness/parse-sweep";
import { planSweep } from "../harness/plan-sweep";
import { describeCombination, formatProgress } from "../harness/progress";
import { readNodesFile } from "../harness/read-nodes-file";
import { runSweep, type ProgressEvent, type RunOverrides } from "../harness/run-sweep";
import { LAUNCHERS, SYNC_MODES, type LauncherKind, type Sweep, type SyncMode } from "../harness/sweep-spec";
import { sweepStatus } from "../harness/sweep-status";
import { readInputFile } from "../input/read-input";

const SUBCOMMANDS = ["run", "plan", "status", "batch", "emulate", "hold"] as const;

const SWEEP_FILE = `The sweep file (JSON). The smallest:
  { "backend": "emulate", "dir": "/tmp/ckpt-target", "m": [1, 2, 4], "sizeMb": [8, 32], "repetitions": 3 }
  backend        "emulate" (m worker processes writing BLCR-pattern images), "command" (a template per
                 process) or "fio" (one fio job per process, timed by fio)
  dir            target folder, on the device to measure (default /tmp/ckpt-target)
  m              process counts: [1, 2, 4] or { "from": 1, "to": 30, "step": 1 }
  sizeMb         application sizes, MB = 10^6 bytes;  sizeSetsMb: mixed-size runs, e.g. [[105, 451, 135]]
  repetitions    runs per combination (default 1)
  sync           emulate, fio: "fsync" (default; fio: end_fsync), "dsync" (O_DSYNC), "none", or an array
  fsyncOnClose, direct, blockSizeKib   fio: fsync_on_close instead of end_fsync; O_DIRECT; KiB per write (1024)
  pagesPerWrite  emulate: pages per write (1 = BLCR's two write() per page; default 256, max 512)
  command, app   command: templates with {node} {pid} {size_mb} {dir} {run_id} {index}; app gives {pid}
  launcher       "local" (default), "ssh" (remoteShell, default ["ssh","-o","BatchMode=yes","{node}"]), "srun"
  nodes, processesPerNode   ssh/srun: hosts, and processes of one run per host (default 1)
  timeoutS (600), pauseS (0), keepFiles (false), appReadyTimeoutS (120)
  order "random" (default, seeded by "seed") | "grid";  name; cluster (written to the trace)
  sweeps         sub-sweeps inheriting every top-level field, e.g. [{}, { "sizeMb": [512], "m": [1, 2] }]
  exclude        [{ "m": [8], "sizeMb": [512] }]
  See docs/harness.md for the backends, the cluster guide (OAR, Slurm) and examples.`;

export const command = defineCommand({
  name: "harness",
  title: "run checkpoint-bandwidth measurement campaigns (docs/science.md §3.1) and write traces",
  usage: [
    "ckpt harness run <sweep.json> --out <dir> [--resume] [--retry-failed] [--json] [--quiet] [--nodes-file <file>] [--launcher local|ssh|srun] [--remote-shell \"<argv with {node}>\"] [--lease-s <s>]",
    "ckpt harness plan <sweep.json> [--json]",
    "ckpt harness status --out <dir> [--json]",
    "ckpt harness batch <sweep.json> --scheduler oar|slurm --out <dir> --nodes <n> --walltime <HH:MM:SS> [--queue <queue|partition>] [--script <file>] [--ckpt \"<command running ckpt on the nodes>\"]",
    "ckpt harness emulate --size-mb <MB> --file <path> [--sync fsync|dsync|none] [--pages-per-write <k>]",
    "ckpt harness hold --size-mb <MB>",
  ],
  description: `run      runs every combination of the sweep (one parallel checkpoint run each) and writes into
         --out: trace.csv (canonical trace, rewritten atomically after each run), host-logs/,
         runs/<run_id>/attempt-<k>/ (command, configuration, host, tool version, git commit,
         stdout/stderr, trace rows), state/ (per-run state with leases) and plan.json. Progress
         with ETA on stderr.
plan     lists the runs a sweep makes, without running them.
status   what is done, failed, to do in a sweep folder.
batch    writes an OAR or Slurm job script that runs the sweep on the reserved nodes.
emulate  one emulated BLCR checkpoint (usable as a command template); prints {bytes, seconds}.
hold     an application holding --size-mb of touched memory until killed.`,
  subcommands: SUBCOMMANDS,
  allowPositionals: true,
  options: {
    out: { kind: "string", for: ["run", "status", "batch"], required: true, value: "<dir>", help: "the sweep folder (run, status), or where batch writes its job script" },
    resume: { kind: "flag", for: ["run"], help: "continue a stopped or killed sweep: done runs are kept, a run caught in progress is redone, nothing is repeated (also starts a new sweep if --out holds none)" },
    "retry-failed": { kind: "flag", for: ["run"], help: "with --resume, run the failed runs again" },
    "nodes-file": { kind: "string", for: ["run"], value: "<file>", help: "hosts, one per line (e.g. from $OAR_NODE_FILE); overrides the sweep's \"nodes\"" },
    launcher: { kind: "choice", for: ["run"], choices: LAUNCHERS, help: "overrides the sweep's \"launcher\"" },
    "remote-shell": { kind: "string", for: ["run"], value: "\"<argv>\"", help: "overrides the sweep's \"remoteShell\" (ssh launcher); must contain {node}, e.g. \"oarsh {node}\"" },
    "lease-s": { kind: "number", for: ["run"], value: "<s>", default: 30, help: `lease length in seconds (3 to ${MAX_DURATION_S}): a killed runner's lease frees itself after it` },
    json: { kind: "flag", for: ["run", "plan", "status"], help: "machine-readable output" },
    quiet: { kind: "flag", for: ["run"], help: "no progress on stderr" },
    scheduler: { kind: "choice", for: ["batch"], choices: ["oar", "slurm"], required: true, help: "the batch scheduler the job script is for" },
    nodes: { kind: "integer", for: ["batch"], required: true, min: 1, help: "nodes to reserve" },
    walltime: { kind: "string", for: ["batch"], required: true, value: "<HH:MM:SS>", help: "the reservation's length" },
    queue: { kind: "string", for: ["batch"], value: "<queue|partition>", help: "the queue (OAR) or partition (Slurm)" },
    script: { kind: "string", for: ["batch"], value: "<file>", defaultText: "--out/job.oar.sh or --out/job.slurm.sh", help: "where to write the job script" },
    ckpt: { kind: "string", for: ["batch"], value: "\"<command>\"", defaultText: "the node running this command, with this project's bin/ckpt.js", help: "the command that runs ckpt on the nodes" },
    "size-mb": { kind: "number", for: ["emulate", "hold"], required: true, value: "<MB>", help: "the image (emulate) or memory (hold) size, MB = 10^6 bytes, > 0" },
    file: { kind: "string", for: ["emulate"], required: true, value: "<path>", help: "the image file to write" },
    sync: { kind: "choice", for: ["emulate"], choices: SYNC_MODES, default: "fsync", help: "how the image reaches the device: fsync at the end, O_DSYNC writes, or none" },
    "pages-per-write": { kind: "integer", for: ["emulate"], min: 1, default: 256, help: "pages per write(), 1 to 512 (1 = BLCR's two write() per page)" },
  },
  notes: `Exit (run): 0 every run done, 1 some run failed (listed, with the folder holding its stderr) or bad
input, 2 usage error, 130 interrupted (resume with --resume).

${SWEEP_FILE}

Examples:
  ckpt harness run sweep.json --out runs/here
  ckpt harness run sweep.json --out runs/here --resume
  ckpt harness batch sweep.json --scheduler oar --out ~/ckpt/azur --nodes 31 --walltime 4:00:00`,
  async run({ values, positionals, subcommand }, io) {
    const wantsSweep = subcommand === "run" || subcommand === "plan" || subcommand === "batch";
    if (wantsSweep && positionals.length !== 1) throw new UsageError(`"ckpt harness ${subcommand}" takes one sweep file, got ${positionals.length === 0 ? "none" : positionals.join(" ")}`);
    if (!wantsSweep && positionals.length > 0) throw new UsageError(`"ckpt harness ${subcommand}" takes no positional arguments, got ${positionals.join(" ")}`);
    const options = values as HarnessOptions;
    switch (subcommand) {
      case "run":
        return runSubcommand(positionals[0]!, options, io);
      case "plan":
        return planSubcommand(positionals[0]!, options, io);
      case "status":
        return statusSubcommand(options, io);
      case "batch":
        return batchSubcommand(positionals[0]!, options, io);
      case "emulate": {
        const pagesPerWrite = options["pages-per-write"];
        if (pagesPerWrite > 512) throw new UsageError(`--pages-per-write expects an integer from 1 to 512, got ${pagesPerWrite}`);
        return passThrough("emulate-worker", ["--size-mb", String(sizeMb(options)), "--file", options.file!, "--sync", options.sync, "--pages-per-write", String(pagesPerWrite)], io);
      }
      case "hold":
        // In this process, not a child: the command backend's {pid} is this process, so
        // its resident memory is the held size and killing it frees that memory.
        holdMemory(sizeMb(options));
        return new Promise<number>(() => {});
    }
  },
});

/** The options as `run` reads them (the table checked their grammar; each subcommand reads its own). */
interface HarnessOptions {
  out?: string;
  resume: boolean;
  "retry-failed": boolean;
  "nodes-file"?: string;
  launcher?: LauncherKind;
  "remote-shell"?: string;
  "lease-s": number;
  json: boolean;
  quiet: boolean;
  scheduler?: Scheduler;
  nodes?: number;
  walltime?: string;
  queue?: string;
  script?: string;
  ckpt?: string;
  "size-mb"?: number;
  file?: string;
  sync: SyncMode;
  "pages-per-write": number;
}

function readSweepFile(path: string): { sweep: Sweep; text: string } {
  const text = readInputFile(path, "the sweep file");
  const name = basename(path).replace(/\.json$/i, "");
  return { sweep: parseSweep(text, path, name), text };
}

async function runSubcommand(sweepPath: string, options: HarnessOptions, io: CommandIo): Promise<number> {
  const outDir = options.out!;
  const { sweep, text } = readSweepFile(sweepPath);
  const overrides: RunOverrides = {};
  const nodesFile = options["nodes-file"];
  if (nodesFile !== undefined) overrides.nodes = readNodesFile(nodesFile);
  if (options.launcher !== undefined) overrides.launcher = options.launcher;
  const remoteShell = options["remote-shell"];
  if (remoteShell !== undefined) {
    const argv = remoteShell.trim().split(/\s+/);
    if (!argv.some((a) => a.includes("{node}"))) throw new UsageError(`--remote-shell must contain {node}, e.g. --remote-shell "oarsh {node}"; got "${remoteShell}"`);
    overrides.remoteShell = argv;
  }
  const leaseS = options["lease-s"];
  if (!(leaseS >= 3 && leaseS <= MAX_DURATION_S)) throw new UsageError(`--lease-s expects a number of seconds from 3 to ${MAX_DURATION_S}, got ${leaseS}`);
  const { json, quiet } = options;

  const controller = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    io.stderr(`\nckpt harness: ${signal}: stopping the current run; resume with --resume`);
    controller.abort(signal);
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  const progress = progressPrinter(io, quiet);
  try {
    const summary = await runSweep({
      outDir,
      sweep,
      sweepFile: { path: resolve(sweepPath), text },
      resume: options.resume,
      retryFailed: options["retry-failed"],
      overrides,
      leaseS,
      signal: controller.signal,
      onProgress: progress,
    });
    progress.end();
    if (json) io.stdout(JSON.stringify(summary, null, 2));
    else {
      const lines = [
        `sweep "${sweep.name}": ${summary.done} of ${summary.total} runs done, ${summary.failed.length} failed, ${summary.todo} to do (${summary.ranNow} run now)`,
        `trace: ${summary.traceFile} (${summary.traceRows} rows)   host logs: ${summary.hostLogsDir}`,
      ];
      if (summary.traceRows > 0) lines.push("", ...(await bandwidthMatrix(summary.traceFile)));
      if (summary.failed.length > 0) {
        lines.push("", "failed runs (stdout/stderr in their folder; rerun with --resume --retry-failed):");
        lines.push(formatTable(["run", "folder", "reason"], summary.failed.map((f) => [f.id, f.runFolder ?? "—", f.reason])));
      }
      io.stdout(lines.join("\n"));
    }
    if (summary.interrupted) return 130;
    if (summary.failed.length === 0) return 0;
    io.stderr(`ckpt harness: ${summary.failed.length} of ${summary.total} runs failed (first: ${summary.failed[0]!.id}: ${summary.failed[0]!.reason}); rerun them with --resume --retry-failed`);
    return 1;
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}

/**
 * What the sweep measured so far, as `ckpt ingest` aggregates it (the same code): the mean
 * aggregated bandwidth and its run count per (size, m), sizes down, process counts across.
 */
async function bandwidthMatrix(traceFile: string): Promise<string[]> {
  const { observations } = await ingestFiles([traceFile]);
  if (observations.series.length === 0) return [];
  const ms = [...new Set(observations.series.flatMap((s) => s.points.map((p) => p.m)))].sort((a, b) => a - b);
  const rows = observations.series.map((s) => [
    `${s.sizeMb} MB`,
    ...ms.map((m) => {
      const point = s.points.find((p) => p.m === m);
      return point === undefined ? "" : `${formatNumber(point.meanBwMbPerS, 1)} (${point.count})${m === s.peak.m ? " *" : ""}`;
    }),
  ]);
  return [
    "mean aggregated bandwidth, MB/s (runs), * = peak of the size series — ckpt ingest / ckpt fit the trace for more:",
    formatTable(["size", ...ms.map((m) => `m=${m}`)], rows),
    ...(observations.validationRuns.length > 0 ? [`${observations.validationRuns.length} mixed-size run(s) kept for validation`] : []),
  ];
}

/** Progress on stderr: a redrawn line on a terminal, one line per finished run otherwise. */
function progressPrinter(io: CommandIo, quiet: boolean): ((event: ProgressEvent) => void) & { end(): void } {
  const tty = process.stderr.isTTY === true;
  let drawn = false;
  const print = (event: ProgressEvent) => {
    if (quiet) return;
    if (tty) {
      process.stderr.write(`\r\x1b[K${formatProgress(event.snapshot)}`);
      drawn = true;
      if (event.kind === "run-end" && event.status === "failed") {
        process.stderr.write(`\r\x1b[K  run ${event.id} failed: ${event.reason}\n`);
      }
      return;
    }
    if (event.kind === "start") io.stderr(formatProgress(event.snapshot));
    if (event.kind === "run-end") {
      io.stderr(`${formatProgress(event.snapshot)}  ${event.id} ${event.status}${event.status === "failed" ? `: ${event.reason}` : ""}`);
    }
  };
  return Object.assign(print, {
    end() {
      if (drawn) process.stderr.write("\n");
    },
  });
}

function planSubcommand(sweepPath: string, options: HarnessOptions, io: CommandIo): number {
  const { sweep } = readSweepFile(sweepPath);
  const plan = planSweep(sweep);
  if (options.json) {
    io.stdout(JSON.stringify(plan, null, 2));
    return 0;
  }
  const processes = plan.combinations.reduce((sum, c) => sum + c.m, 0);
  const total = (c: (typeof plan.combinations)[number]) => c.sizesMb.reduce((a, b) => a + b, 0);
  const megabytes = plan.combinations.reduce((sum, c) => sum + total(c), 0);
  const largest = Math.max(...plan.combinations.map(total));
  // Memory: all of a run's processes on this machine, or per node on a cluster.
  const memoryMb = Math.max(
    ...plan.combinations.map((c) => (c.launcher === "local" ? total(c) : Math.max(...c.sizesMb) * Math.min(c.processesPerNode, c.m))),
  );
  const where = plan.combinations.every((c) => c.launcher === "local") ? "on this machine" : "on one node";
  io.stdout(
    [
      formatTable(
        ["#", "run_id", "backend", "m", "sizes", "sync", "rep"],
        plan.combinations.map((c, i) => [String(i + 1), c.id, c.backend, String(c.m), describeCombination(c).split(" ").slice(1, -1).join(" "), c.sync ?? "-", String(c.repetition)]),
      ),
      "",
      `${plan.combinations.length} runs (order: ${sweep.order}), ${processes} process checkpoints, ${(megabytes / 1000).toFixed(2)} GB written in all.`,
      `The largest run writes ${(largest / 1000).toFixed(2)} GB at once (free space needed in the target) and needs ${(memoryMb / 1000).toFixed(2)} GB of memory ${where}.`,
    ].join("\n"),
  );
  return 0;
}

function statusSubcommand(options: HarnessOptions, io: CommandIo): number {
  const status = sweepStatus(options.out!);
  if (options.json) {
    io.stdout(JSON.stringify(status, null, 2));
    return 0;
  }
  const c = status.counts;
  const lines = [
    `sweep "${status.sweepName}": ${status.total} runs — ${c.done} done, ${c.failed} failed, ${c.running} running, ${c.todo} to do`,
    status.runner
      ? `being run by process ${status.runner.owner.pid} (lease until ${new Date(status.runner.expiresAtMs).toISOString()})`
      : "no runner is working on it now" + (c.todo + c.running > 0 ? "; continue it with: ckpt harness run <sweep.json> --out <dir> --resume" : ""),
  ];
  const failed = status.states.filter((s) => s.status === "failed");
  if (failed.length > 0) {
    lines.push("", formatTable(["failed run", "attempts", "folder", "reason"], failed.map((s) => [s.id, String(s.attempts), s.runFolder ?? "—", s.reason ?? "—"])));
  }
  io.stdout(lines.join("\n"));
  return 0;
}

function batchSubcommand(sweepPath: string, options: HarnessOptions, io: CommandIo): number {
  const { sweep } = readSweepFile(sweepPath);
  const scheduler = options.scheduler!;
  const outDir = resolve(options.out!);
  const nodes = options.nodes!;
  const walltime = options.walltime!;
  if (!/^\d{1,3}:\d{2}:\d{2}$/.test(walltime)) throw new UsageError(`--walltime expects HH:MM:SS, e.g. 2:00:00; got "${walltime}"`);
  const maxM = Math.max(...planSweep(sweep).combinations.map((c) => c.m));
  const perNode = Math.max(...sweep.subSweeps.map((s) => s.processesPerNode));
  if (maxM > nodes * perNode) {
    throw new InputError(`the sweep has runs of m = ${maxM} processes but --nodes ${nodes} × processesPerNode ${perNode} cannot hold them; reserve at least ${Math.ceil(maxM / perNode)} nodes`);
  }
  const ckptFlag = options.ckpt;
  const ckpt = ckptFlag !== undefined ? ckptFlag.trim().split(/\s+/) : [process.execPath, join(projectRoot(), "bin", "ckpt.js")];
  const text = batchScript({
    scheduler,
    jobName: `ckpt-${sweep.name}`.slice(0, 64),
    sweepPath: resolve(sweepPath),
    outDir,
    nodes,
    walltime,
    queue: options.queue ?? null,
    ckpt,
  });
  const scriptPath = resolve(options.script ?? join(outDir, scheduler === "oar" ? "job.oar.sh" : "job.slurm.sh"));
  mkdirSync(outDir, { recursive: true });
  writeFileAtomic(scriptPath, text);
  chmodSync(scriptPath, 0o755);
  io.stdout(`wrote ${scriptPath}\nsubmit it with:  ${scheduler === "oar" ? `oarsub -S ${scriptPath}` : `sbatch ${scriptPath}`}`);
  return 0;
}

/** --size-mb, which emulate and hold require (the table checks it is a number). */
function sizeMb(options: HarnessOptions): number {
  const megabytes = options["size-mb"]!;
  if (!(megabytes > 0)) throw new UsageError(`--size-mb expects a size in MB (10^6 bytes) > 0, got ${megabytes}`);
  return megabytes;
}

/** Run one of the harness's own scripts in the foreground, its output through `io`. */
function passThrough(script: HarnessScriptName, argv: string[], io: CommandIo): number {
  const [execPath, ...rest] = harnessScriptArgv(script);
  const result = spawnSync(execPath!, [...rest, ...argv], { stdio: "pipe", encoding: "utf8" });
  if (result.error) throw result.error;
  if (result.stdout) io.stdout(result.stdout);
  if (result.stderr) io.stderr(result.stderr);
  return result.status ?? 1;
}
