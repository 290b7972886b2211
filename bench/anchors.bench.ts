/**
 * `npm run bench -- anchors`: the project's performance table. Each line runs a piece of
 * work next to its reference in the same run, on the same input — C versions of
 * ScheduleCkpt, the DP placer and a CSV ingest compiled now with the system `cc -O2`
 * (bench/reference/), DuckDB through its npm package, `node -e 0` — and prints our time,
 * the reference's, the ratio and whether the target is met, with notes on where the time
 * goes. The table is also written to bench/RESULTS.md (atomically), the file the README's
 * performance section points to.
 *
 * Ours is measured on the built library and CLI (dist/, bin/ckpt.js: what users run);
 * `node bin/build.js` first recompiles them if the sources changed.
 *
 * `CKPT_BENCH_LINES=schedule,dp` measures only those lines (keys below) and leaves
 * RESULTS.md alone; `CKPT_BENCH_100M=1` adds the 100 M-row ingest (bench/anchors/ingest-anchor.ts).
 */
import { execFileSync } from "node:child_process";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { writeFileAtomic } from "../pipeline/shared/atomic-write";
import { machineLine, printTable } from "./harness";
import { compilerVersion } from "./reference/c-reference";
import { ROOT, formatRatio, type Anchor } from "./anchors/anchor";
import { cliAnchor } from "./anchors/cli-anchor";
import { dpAnchor } from "./anchors/dp-anchor";
import { ingestAnchors } from "./anchors/ingest-anchor";
import { pipelineAnchor } from "./anchors/pipeline-anchor";
import { scheduleAnchor } from "./anchors/schedule-anchor";
import { bktAnchors, das06Anchor, simulateAnchor } from "./anchors/simulate-anchor";

/** Each line's measurement, in the order of the table; a failure is reported on its line. */
const LINES: { key: string; work: string; measure: () => Anchor | Anchor[] | Promise<Anchor | Anchor[]> }[] = [
  { key: "schedule", work: "ScheduleCkpt", measure: scheduleAnchor },
  { key: "dp", work: "DP placer", measure: dpAnchor },
  { key: "ingest", work: "ingest", measure: ingestAnchors },
  { key: "cli", work: "CLI start-up", measure: cliAnchor },
  { key: "pipeline", work: "pipeline", measure: pipelineAnchor },
  { key: "simulate", work: "simulation engine", measure: simulateAnchor },
  { key: "bkt", work: "[BKT] simulator", measure: bktAnchors },
  { key: "das06", work: "[DAS06] simulator", measure: das06Anchor },
];

function commit(): string {
  try {
    const head = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: ROOT, encoding: "utf8" }).trim();
    const dirty = execFileSync("git", ["status", "--porcelain", "--untracked-files=no"], { cwd: ROOT, encoding: "utf8" }).trim() !== "";
    return dirty ? `${head} with uncommitted changes` : head;
  } catch {
    return "unknown (not a git checkout)";
  }
}

function markdown(anchors: Anchor[], context: { machine: string; compiler: string; commit: string; date: string }): string {
  const cell = (text: string) => text.replace(/\|/g, "\\|");
  const lines = [
    "# Performance results",
    "",
    "Written by `npm run bench -- anchors` (bench/anchors.bench.ts); do not edit by hand. Each",
    "line is measured next to its reference in the same run on the same input; the ratio is",
    "our time ÷ the reference's (below 1: faster).",
    "",
    `- date: ${context.date}; commit: ${context.commit}`,
    `- ${context.machine}`,
    `- references compiled with: ${context.compiler}, \`-O2\``,
    "",
    "| work | reference in the same run | ours | ratio | target | met |",
    "|---|---|---|---|---|---|",
    ...anchors.map((a) => `| ${cell(a.work)} | ${cell(a.reference)} | ${cell(a.ours)} | ${a.ratio === null ? "—" : formatRatio(a.ratio)} | ${cell(a.target)} | ${a.met ? "yes" : "**no**"} |`),
    "",
    "## Notes",
    "",
    ...anchors.flatMap((a) => [`**${a.work}**`, "", ...a.notes.map((n) => `- ${n}`), ""]),
  ];
  return `${lines.join("\n").trimEnd()}\n`;
}

export default async function anchorsBenchmark(): Promise<void> {
  execFileSync(process.execPath, [join(ROOT, "bin", "build.js")], { cwd: ROOT, stdio: "inherit" });
  const compiler = compilerVersion();
  console.log(`references compiled with ${compiler}`);
  const only = process.env.CKPT_BENCH_LINES?.split(",").map((key) => key.trim());
  const lines = LINES.filter((line) => only === undefined || only.includes(line.key));
  const anchors: Anchor[] = [];
  for (const line of lines) {
    process.stderr.write(`measuring ${line.work}…\n`);
    // The machine is shared: each line says how busy it was (1-minute load average, before and after).
    const loadBefore = loadavg()[0]!;
    try {
      const measured = await line.measure();
      const load = `load average while measured: ${loadBefore.toFixed(1)} → ${loadavg()[0]!.toFixed(1)} (${cpus().length} cores)`;
      anchors.push(...(Array.isArray(measured) ? measured : [measured]).map((a) => ({ ...a, notes: [...a.notes, load] })));
    } catch (error) {
      anchors.push({ work: line.work, reference: "—", ours: `failed: ${(error as Error).message.split("\n")[0]}`, ratio: null, target: "—", met: false, notes: [] });
    }
  }
  printTable(
    "performance table (ratio = our time ÷ the reference's)",
    ["work", "reference in the same run", "ours", "ratio", "target", "met"],
    anchors.map((a) => [a.work, a.reference, a.ours, a.ratio === null ? "—" : formatRatio(a.ratio), a.target, a.met ? "yes" : "NO"]),
  );
  for (const a of anchors) if (a.notes.length > 0) console.log(`\n${a.work}\n${a.notes.map((n) => `  - ${n}`).join("\n")}`);
  if (lines.length < LINES.length) {
    console.log(`\nbench/RESULTS.md left as it was: only ${lines.map((line) => line.key).join(", ")} measured (CKPT_BENCH_LINES)`);
    return;
  }
  const results = join(ROOT, "bench", "RESULTS.md");
  writeFileAtomic(results, markdown(anchors, { machine: machineLine(), compiler, commit: commit(), date: new Date().toISOString().slice(0, 10) }));
  console.log(`\nwrote bench/RESULTS.md (${anchors.filter((a) => a.met).length}/${anchors.length} targets met)`);
}
