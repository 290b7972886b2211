/**
 * `ckpt campaign`: the papers' ScheduleCkpt campaigns (docs/science.md §4.5–§4.6) over many seeds,
 * with 95 % confidence intervals and the published values next to ours. Progress goes to
 * stderr; results to stdout (a table, or --json) and optionally to a file (--out).
 */
import { loadModel } from "../fit/load-model";
import { writeJsonAtomic } from "../shared/atomic-write";
import {
  booleanFlag,
  choiceFlag,
  numberFlag,
  optionalStringFlag,
  stringFlag,
  type Command,
  type CommandIo,
  type ParsedArgs,
} from "../shared/command";
import { UsageError } from "../shared/errors";
import { formatNumber, formatTable, type Cell } from "../shared/format-table";

/** Schedule tables: two decimals (shares, seconds), integers (counts, CTNYS) without. */
const numericTable = (header: string[], rows: Cell[][]): string => formatTable(header, rows, { decimals: 2 });
import {
  CAMPAIGN_PARTS,
  CRITERIA,
  DOMAIN_POLICIES,
  ESTIMATOR_NAMES,
  runCampaign,
  type CampaignPart,
  type CampaignResult,
  type Criterion,
  type MeanWithCi,
} from "../schedule";

const help = `ckpt campaign — the papers' ScheduleCkpt campaigns over seeds, next to the published values (docs/science.md §4.5–§4.6)

Usage:
  ckpt campaign [options]

Parts (--parts, comma-separated; default A,B,C,identical,waves):
  A, B, C      random families (n = 25/50/70, T = 180/300/420 s, sizes uniform in [100, 500] MB):
               CTNYS share per criterion and k0 with a 95 % CI; baselines, upper bound, exact optimum
  identical    n = 50, T = 300 s, p = 26..75, sizes 10/50/100/200/400 MB, k0 = 0 (deterministic)
  waves        25 nodes × 4 applications checkpointed by waves, T = 600 s, k0 = 2
  scaling      scheduler time against n (--scaling-n) and k0, family C's laws with T = 6 n s

Options:
  --model <file|paper>     bandwidth model (default paper)
  --seeds <n>              instances per family (default 100)
  --first-seed <s>         first seed (default 1)
  --k0 <list>              k0 values (default 0,1,2)
  --criteria <list>        p, density (default both)
  --estimator static|fluid time estimator (default static)
  --domain strict|warn     fitted-domain policy (default strict; see ckpt schedule --help)
  --exact                  solve the exact simultaneous-start optimum of every family instance
  --exact-nodes <n>        its node limit per instance (default 2000000; deterministic)
  --exact-time-ms <ms>     also a time limit per instance (default none: a time limit makes
                           "proven optimal" depend on the machine)
  --scaling-n <list>       n values of the scaling part (default 25,50,100,200,500,1000)
  --scaling-seeds <n>      instances per n (default 10)
  --json                   print the full result as JSON (every run included)
  --out <file>             also write the JSON result to a file (atomically)

Exit codes: 0 done, 1 bad input, 2 usage error.

Example:
  ckpt campaign --parts A,B,C --seeds 200 --k0 0,1,2,3 --exact --out campaign.json`;

export const command: Command = {
  name: "campaign",
  help,
  options: {
    model: { type: "string" },
    parts: { type: "string" },
    seeds: { type: "string" },
    "first-seed": { type: "string" },
    k0: { type: "string" },
    criteria: { type: "string" },
    estimator: { type: "string" },
    domain: { type: "string" },
    exact: { type: "boolean" },
    "exact-nodes": { type: "string" },
    "exact-time-ms": { type: "string" },
    "scaling-n": { type: "string" },
    "scaling-seeds": { type: "string" },
    json: { type: "boolean" },
    out: { type: "string" },
  },
  run,
};

function listFlag(args: ParsedArgs, name: string, fallback: string): string[] {
  return stringFlag(args, name, fallback).split(",").map((s) => s.trim()).filter((s) => s !== "");
}

function integerList(args: ParsedArgs, name: string, fallback: string, minimum: number): number[] {
  return listFlag(args, name, fallback).map((item) => {
    const value = Number(item);
    if (!Number.isInteger(value) || value < minimum) throw new UsageError(`--${name}: "${item}" is not an integer ≥ ${minimum}; e.g. --${name} ${fallback}`);
    return value;
  });
}

function positiveInteger(args: ParsedArgs, name: string, fallback: number): number {
  const value = numberFlag(args, name, fallback);
  if (!Number.isInteger(value) || value < 1) throw new UsageError(`--${name} must be an integer ≥ 1, got ${value}`);
  return value;
}

function run(args: ParsedArgs, io: CommandIo): number {
  const parts = listFlag(args, "parts", "A,B,C,identical,waves");
  for (const part of parts) {
    if (!(CAMPAIGN_PARTS as readonly string[]).includes(part)) throw new UsageError(`--parts: unknown part "${part}"; choose among ${CAMPAIGN_PARTS.join(", ")}`);
  }
  const criteria = listFlag(args, "criteria", "p,density");
  for (const criterion of criteria) {
    if (!(CRITERIA as readonly string[]).includes(criterion)) throw new UsageError(`--criteria: unknown criterion "${criterion}"; choose among ${CRITERIA.join(", ")}`);
  }
  const firstSeed = numberFlag(args, "first-seed", 1);
  if (!Number.isInteger(firstSeed)) throw new UsageError(`--first-seed must be an integer, got ${firstSeed}`);
  const result = runCampaign({
    model: loadModel(stringFlag(args, "model", "paper")),
    domain: choiceFlag(args, "domain", DOMAIN_POLICIES, "strict"),
    estimator: choiceFlag(args, "estimator", ESTIMATOR_NAMES, "static"),
    parts: parts as CampaignPart[],
    seeds: positiveInteger(args, "seeds", 100),
    firstSeed,
    k0s: integerList(args, "k0", "0,1,2", 0),
    criteria: criteria as Criterion[],
    exact: booleanFlag(args, "exact")
      ? { nodeLimit: positiveInteger(args, "exact-nodes", 2_000_000), timeLimitMs: args.values["exact-time-ms"] === undefined ? Infinity : positiveInteger(args, "exact-time-ms", 1) }
      : null,
    scalingNs: integerList(args, "scaling-n", "25,50,100,200,500,1000", 1),
    scalingSeeds: positiveInteger(args, "scaling-seeds", 10),
    onProgress: (message) => io.stderr(message),
  });
  const out = optionalStringFlag(args, "out");
  if (out !== undefined) writeJsonAtomic(out, result);
  io.stdout(booleanFlag(args, "json") ? JSON.stringify(result, null, 2) : renderCampaign(result));
  return 0;
}

const percent = (value: number | null | undefined, decimals = 1) => (value === null || value === undefined ? "—" : formatNumber(value * 100, decimals));
const ci = (m: MeanWithCi | null, scale = 100, decimals = 1) =>
  m === null || m.n === 0 ? "—" : m.low === null ? formatNumber(m.mean * scale, decimals) : `${formatNumber(m.mean * scale, decimals)} [${formatNumber(m.low * scale, decimals)}, ${formatNumber(m.high! * scale, decimals)}]`;

export function renderCampaign(result: CampaignResult): string {
  const s = result.settings;
  const lines: string[] = [
    `ScheduleCkpt campaigns: model "${s.model}", ${s.estimator} estimator, ${s.domain} domain, ${s.seeds} seeds from ${s.firstSeed}` +
      (s.exact ? `, exact optimum with ≤ ${s.exact.nodeLimit} nodes${Number.isFinite(s.exact.timeLimitMs) ? ` / ${s.exact.timeLimitMs} ms` : ""} per instance` : ""),
  ];
  if (result.families.length > 0) {
    const rows: Cell[][] = result.families.map((r) => [
      r.family, r.criterion, r.k0, ci(r.share), percent(r.published?.share), formatNumber(r.ctnys.mean, 0), r.published?.ctnys ?? null,
      formatNumber(r.checkpointedCount, 1), r.missedTotal, ci(r.gapToBoundShare), ...(s.exact ? [ci(r.shortfallToExactShare, 100, 2), r.belowExactCount] : []),
      formatNumber(r.schedulerMicrosMedian, 0), r.published?.schedulerMicros ?? null,
    ]);
    lines.push(
      "",
      "Random families: CTNYS share % (mean [95 % CI]) — ours vs published ([Y11] Tables 4–9)",
      numericTable(
        ["fam", "criterion", "k0", "share % [95% CI]", "published %", "CTNYS", "published", "ckpt'd", "missed", "gap to bound %", ...(s.exact ? ["exact − ours, % of Σp", "# ours < exact"] : []), "sched µs (median)", "published µs"],
        rows,
      ),
    );
    lines.push(
      "",
      "Baselines per family: share % (mean [95 % CI])",
      numericTable(
        ["fam", "sequential greedy", "all in parallel", "parallel stalled", "upper bound", ...(s.exact ? ["exact simultaneous (proven)", "proven"] : [])],
        result.familyBaselines.map((b) => [
          b.family, ci(b.sequentialShare), ci(b.parallelShare), b.parallelStalledCount, ci(b.upperBoundShare), ...(s.exact ? [ci(b.exactShare), b.exactProvenCount] : []),
        ]),
      ),
    );
    const notes = result.families.filter((r) => r.published?.note).map((r) => `${r.family}/${r.criterion}/k0=${r.k0}: ${r.published!.note}`);
    if (notes.length > 0) lines.push(...notes.map((n) => `note: ${n}`));
  }
  if (result.identicalSizes) {
    lines.push(
      "",
      "Identical sizes (n = 50, T = 300 s, p = 26..75, k0 = 0, criterion p): checkpointed / CTNYS",
      numericTable(
        ["size MB", "ScheduleCkpt", "sequential greedy", "published (measured, sequential)"],
        result.identicalSizes.map((r) => [
          r.sizeMb, `${r.scheduleCkpt.checkpointed} / ${r.scheduleCkpt.ctnys}`, `${r.sequentialGreedy.checkpointed} / ${r.sequentialGreedy.ctnys}`, `${r.published.checkpointed} / ${r.published.ctnys}`,
        ]),
      ),
    );
  }
  if (result.waves) {
    lines.push(
      "",
      "Waves (25 nodes × 4 applications, T = 600 s, k0 = 2): share % (mean [95 % CI]) vs [Y-thesis] §6.4",
      numericTable(
        ["criterion", "share % [95% CI]", "published %", "CTNYS", "published", "sched µs (median)", "published µs"],
        result.waves.map((w) => [w.criterion, ci(w.share), percent(w.published.share), formatNumber(w.ctnys.mean, 0), w.published.ctnys, formatNumber(w.schedulerMicrosMedian, 0), w.published.schedulerMicros]),
      ),
    );
  }
  if (result.scaling) {
    lines.push(
      "",
      "Scheduler time against n and k0 (criterion p, T = 6 n s; median µs, evaluations)",
      numericTable(["n", "T s", "k0", "sched µs", "evaluations", "decisions"], result.scaling.map((r) => [r.n, r.deadlineS, r.k0, formatNumber(r.schedulerMicrosMedian, 0), r.evaluationsMedian, r.iterationsMedian])),
    );
  }
  lines.push("", ...result.notes.map((n) => `note: ${n}`));
  return lines.join("\n");
}
