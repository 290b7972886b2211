/**
 * `ckpt campaign`: the papers' ScheduleCkpt campaigns (docs/science.md §4.5–§4.6) over many seeds,
 * with 95 % confidence intervals and the published values next to ours. Progress goes to
 * stderr; results to stdout (a table, or --json) and optionally to a file (--out).
 */
import { DOMAIN_POLICY_ALIASES } from "../bandwidth/outside-domain";
import { loadModel } from "../fit/load-model";
import { writeJsonAtomic } from "../shared/atomic-write";
import { defineCommand } from "../command-line/command";
import { formatNumber, formatTable, type Cell } from "../shared/format-table";

/** Schedule tables: two decimals (shares, seconds), integers (counts, CTNYS) without. */
const numericTable = (header: string[], rows: Cell[][]): string => formatTable(header, rows, { decimals: 2 });
import { readingsOf } from "./schedule-readings-options";
import {
  CANDIDATE_READINGS,
  DECISION_READINGS,
  COMPLETION_READINGS,
  COMPLETION_SCOPES,
  RUNNING_SIZE_READINGS,
  TIE_READINGS,
  WAVE_CARRIES,
  WAVE_ORDERS,
  WAVE_PACINGS,
} from "../schedule/readings";
import {
  CAMPAIGN_PARTS,
  CRITERIA,
  SCHEDULE_DOMAIN_POLICIES,
  ESTIMATOR_NAMES,
  runCampaign,
  SCHEDULE_DEFAULTS,
  type CampaignResult,
} from "../schedule";
import type { MeanWithCi } from "../stats/mean-confidence-interval";

export const command = defineCommand({
  name: "campaign",
  title: "the papers' ScheduleCkpt campaigns over seeds, next to the published values (docs/science.md §4.5–§4.6)",
  usage: ["ckpt campaign [options]"],
  description: `Parts (--parts):
  A, B, C      random families (n = 25/50/70, T = 180/300/420 s, sizes uniform in [100, 500] MB):
               CTNYS share per criterion and k0 with a 95 % CI; baselines, upper bound, exact optimum
  identical    n = 50, T = 300 s, p = 26..75, sizes 10/50/100/200/400 MB, k0 = 0 (deterministic)
  waves        25 nodes × 4 applications checkpointed by waves, T = 600 s, k0 = 2
  scaling      scheduler time against n (--scaling-n) and k0, family C's laws with T = 6 n s`,
  options: {
    parts: { kind: "strings", choices: CAMPAIGN_PARTS, default: ["A", "B", "C", "identical", "waves"], help: "the parts to run (above), comma-separated" },
    model: { kind: "string", value: "<file|paper>", default: "paper", help: "bandwidth model" },
    seeds: { kind: "integer", value: "<n>", min: 1, default: 100, help: "instances per family" },
    "first-seed": { kind: "integer", value: "<s>", default: 1, help: "first seed" },
    k0: { kind: "integers", value: "<list>", min: 0, default: [0, 1, 2], help: "k0 values" },
    criteria: { kind: "strings", choices: CRITERIA, default: ["p", "density"], help: "criteria" },
    estimator: { kind: "choice", choices: ESTIMATOR_NAMES, default: "static", help: "time estimator" },
    domain: {
      kind: "choice",
      choices: SCHEDULE_DOMAIN_POLICIES,
      aliases: DOMAIN_POLICY_ALIASES,
      default: SCHEDULE_DEFAULTS.domain,
      help: "fitted-domain policy (see ckpt schedule --help)",
    },
    exact: { kind: "flag", help: "solve the exact simultaneous-start optimum of every family instance" },
    "exact-nodes": { kind: "integer", value: "<n>", min: 1, default: 2_000_000, help: "its node limit per instance (deterministic)" },
    "exact-time-ms": {
      kind: "integer",
      value: "<ms>",
      min: 1,
      defaultText: "none",
      help: 'also a time limit per instance (a time limit makes "proven optimal" depend on the machine)',
    },
    candidates: {
      kind: "choice",
      choices: CANDIDATE_READINGS,
      default: "while",
      help: "reading of index_bw_max: while (Algorithm 2, stops at the first application that lowers the bandwidth), filter (passes over it and goes on), all (every waiting application)",
    },
    completion: { kind: "choice", choices: COMPLETION_READINGS, default: "scan", help: "ks_bw's greedy completion L: scan (keeps scanning after a rejection) or stop (at the first application that does not fit)" },
    "completion-scope": { kind: "choice", choices: COMPLETION_SCOPES, default: "candidates", help: "what L scans: the candidates I, or every waiting application" },
    ties: { kind: "choice", choices: TIE_READINGS, default: "first", help: "ks_bw ties: the first subset found, or the one leaving the least volume to transfer" },
    "running-sizes": { kind: "choice", choices: RUNNING_SIZE_READINGS, default: "remaining", help: "checkpoints in progress in the deadline check: remaining or original sizes" },
    decisions: {
      kind: "choice",
      choices: DECISION_READINGS,
      default: "every",
      help: "when ks_bw starts checkpoints: at every decision (t = 0 and each completion, Algorithm 1) or once, at t = 0 (CTNYS = the first knapsack's value)",
    },
    "per-node": { kind: "flag", help: "at most one checkpoint per node at a time (applications with a node), at every decision" },
    "wave-pacing": { kind: "choice", choices: WAVE_PACINGS, default: "barrier", help: "waves: barrier (a wave starts when the previous one's loop ended) or per-node (no waves: one loop, one checkpoint per node at a time)" },
    "wave-order": { kind: "choice", choices: WAVE_ORDERS, default: "input", help: "wave j holds each node's j-th application in input or in criterion order" },
    "wave-carry": { kind: "choice", choices: WAVE_CARRIES, default: "drop", help: "an application a wave did not start is dropped or joins the next wave" },
    "scaling-n": { kind: "integers", value: "<list>", min: 1, default: [25, 50, 100, 200, 500, 1000], help: "n values of the scaling part" },
    "scaling-seeds": { kind: "integer", value: "<n>", min: 1, default: 10, help: "instances per n" },
    json: { kind: "flag", help: "print the full result as JSON (every run included)" },
    out: { kind: "string", value: "<file>", help: "also write the JSON result to a file (atomically)" },
  },
  notes: `Readings (--candidates … --wave-carry): the defaults are the faithful reading of docs/science.md §4.3 and §4.6,
run by the optimised loop; any other value runs a plain implementation of the same loop with that choice
(pipeline/schedule/readings/), whose scheduler times are not comparable. What each reading gives on the
campaigns: pipeline/schedule/README.md, "Which reading do the published results follow?".

Exit codes: 0 done, 1 bad input, 2 usage error.

Examples:
  ckpt campaign --parts A,B,C --seeds 200 --k0 0,1,2,3 --exact --out campaign.json
  ckpt campaign --parts A,B,C --completion stop
  ckpt campaign --parts waves --wave-pacing per-node`,
  run({ values }, io) {
    const timeLimitMs = values["exact-time-ms"];
    const result = runCampaign({
      model: loadModel(values.model),
      domain: values.domain,
      estimator: values.estimator,
      parts: values.parts,
      seeds: values.seeds,
      firstSeed: values["first-seed"],
      k0s: values.k0,
      criteria: values.criteria,
      exact: values.exact ? { nodeLimit: values["exact-nodes"], timeLimitMs: timeLimitMs ?? Infinity } : null,
      scalingNs: values["scaling-n"],
      scalingSeeds: values["scaling-seeds"],
      ...readingsOf(values),
      onProgress: (message) => io.stderr(message),
    });
    if (values.out !== undefined) writeJsonAtomic(values.out, result);
    io.stdout(values.json ? JSON.stringify(result, null, 2) : renderCampaign(result));
    return 0;
  },
});

const percent = (value: number | null | undefined, decimals = 1) => (value === null || value === undefined ? "—" : formatNumber(value * 100, decimals));
const ci = (m: MeanWithCi | null, scale = 100, decimals = 1) =>
  m === null || m.n === 0 ? "—" : m.low === null ? formatNumber(m.mean * scale, decimals) : `${formatNumber(m.mean * scale, decimals)} [${formatNumber(m.low * scale, decimals)}, ${formatNumber(m.high! * scale, decimals)}]`;

export function renderCampaign(result: CampaignResult): string {
  const s = result.settings;
  const lines: string[] = [
    `ScheduleCkpt campaigns: model "${s.model}", ${s.estimator} estimator, domain policy ${s.domain}, ${s.seeds} seeds from ${s.firstSeed}` +
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
