/**
 * Expand a sweep into its plan: the list of combinations (one parallel checkpoint run
 * each), with stable, readable, file-system-safe ids, in the order they will run.
 *
 * Decisions:
 * - The default order is a seeded shuffle: on a shared machine the background load
 *   drifts, and running m = 1, 2, 4, … in sequence would turn that drift into a fake
 *   effect of m. `"order": "grid"` runs repetition by repetition (the whole grid, then
 *   again), which still spreads repetitions over time.
 * - A combination that two sub-sweeps both produce (same parameters) runs once.
 * - The plan is computed once and stored with the sweep's hash; `--resume` follows the
 *   stored plan, so the ids and the order never change under a running campaign.
 */
import { sha256OfJson } from "../shared/hash";
import { createRandom } from "../shared/random";
import type { BackendName, SubSweep, Sweep, SweepFields, SyncMode } from "./sweep-spec";

/** One parallel checkpoint run to perform. */
/** The settings a run takes unchanged from its (sub-)sweep; documented in `SweepFields`. */
type RunSettings = Pick<
  SweepFields,
  | "pagesPerWrite" | "timeoutS" | "pauseS" | "keepFiles" | "command" | "app"
  | "appReadyTimeoutS" | "launcher" | "nodes" | "remoteShell" | "processesPerNode"
  | "fsyncOnClose" | "direct" | "blockSizeKib"
>;

export interface Combination extends RunSettings {
  /** Unique within the plan; names the run folder and is the trace's run_id. */
  id: string;
  backend: BackendName;
  dir: string;
  m: number;
  /** One size per process, MB (all equal for the size series, mixed for validation runs). */
  sizesMb: number[];
  /** emulate and fio; null for the command backend. */
  sync: SyncMode | null;
  repetition: number;
}

export interface SweepPlan {
  schema: "ckpt-lab/harness-plan@1";
  sweepName: string;
  cluster: string | null;
  /** Hash of the validated sweep: a resumed sweep must have the same. */
  sweepSha256: string;
  combinations: Combination[];
}

export function planSweep(sweep: Sweep): SweepPlan {
  const byKey = new Map<string, Omit<Combination, "id">>();
  const maxRepetitions = Math.max(...sweep.subSweeps.map((s) => s.repetitions));
  // Grid order: repetition outermost, then sub-sweep, size, m, sync.
  for (let repetition = 1; repetition <= maxRepetitions; repetition++) {
    for (const sub of sweep.subSweeps) {
      if (repetition > sub.repetitions) continue;
      for (const { m, sizesMb } of sizeCells(sub)) {
        for (const sync of sub.backend === "command" ? [null] : sub.sync) {
          if (excluded(sub, m, sizesMb, sync)) continue;
          const combination = combinationOf(sub, m, sizesMb, sync, repetition);
          const key = sha256OfJson(combination);
          if (!byKey.has(key)) byKey.set(key, combination);
        }
      }
    }
  }
  let combinations = assignIds(sweep.name, [...byKey.values()]);
  if (sweep.order === "random") combinations = shuffled(combinations, sweep.seed);
  return {
    schema: "ckpt-lab/harness-plan@1",
    sweepName: sweep.name,
    cluster: sweep.cluster,
    sweepSha256: sha256OfJson(sweep),
    combinations,
  };
}

function sizeCells(sub: SubSweep): { m: number; sizesMb: number[] }[] {
  const cells: { m: number; sizesMb: number[] }[] = [];
  for (const size of sub.sizeMb) for (const m of sub.m) cells.push({ m, sizesMb: Array.from({ length: m }, () => size) });
  for (const set of sub.sizeSetsMb) cells.push({ m: set.length, sizesMb: [...set] });
  return cells;
}

function excluded(sub: SubSweep, m: number, sizesMb: number[], sync: SyncMode | null): boolean {
  const uniformSize = sizesMb.every((s) => s === sizesMb[0]) ? sizesMb[0]! : null;
  return sub.exclude.some(
    (rule) =>
      (rule.m === undefined || rule.m.includes(m)) &&
      (rule.sizeMb === undefined || (uniformSize !== null && rule.sizeMb.includes(uniformSize))) &&
      (rule.sync === undefined || (sync !== null && rule.sync.includes(sync))),
  );
}

function combinationOf(sub: SubSweep, m: number, sizesMb: number[], sync: SyncMode | null, repetition: number): Omit<Combination, "id"> {
  return {
    backend: sub.backend,
    dir: sub.dir,
    m,
    sizesMb,
    sync,
    repetition,
    pagesPerWrite: sub.pagesPerWrite,
    timeoutS: sub.timeoutS,
    pauseS: sub.pauseS,
    keepFiles: sub.keepFiles,
    command: sub.command,
    app: sub.app,
    appReadyTimeoutS: sub.appReadyTimeoutS,
    launcher: sub.launcher,
    nodes: sub.nodes,
    remoteShell: sub.remoteShell,
    processesPerNode: sub.processesPerNode,
    // fio's options only on fio's runs: every other plan (and its hash) stays as it was.
    ...(sub.backend === "fio" ? { fsyncOnClose: sub.fsyncOnClose, direct: sub.direct, blockSizeKib: sub.blockSizeKib } : {}),
  };
}

/**
 * `<sweep>.m4-s32-r1`: the sweep's name, m, the size (or `mix-<hash>` for mixed sizes), the
 * sync mode and backend when they vary within the plan, the repetition; and a short hash of
 * the parameters when two different combinations would otherwise share an id.
 */
function assignIds(sweepName: string, combinations: Omit<Combination, "id">[]): Combination[] {
  const varies = (pick: (c: Omit<Combination, "id">) => unknown) =>
    new Set(combinations.map(pick).filter((v) => v !== null).map(String)).size > 1;
  const syncVaries = varies((c) => c.sync);
  const backendVaries = varies((c) => c.backend);
  const readable = combinations.map((c) => {
    const uniform = c.sizesMb.every((s) => s === c.sizesMb[0]);
    const size = uniform ? `s${c.sizesMb[0]}` : `mix-${sha256OfJson(c.sizesMb).slice(0, 6)}`;
    const parts = [`m${c.m}`, size];
    if (backendVaries) parts.push(c.backend);
    if (syncVaries && c.sync !== null) parts.push(c.sync);
    return parts.join("-");
  });
  const count = new Map<string, Set<string>>();
  combinations.forEach((c, i) => {
    const { repetition: _repetition, ...parameters } = c;
    const set = count.get(readable[i]!) ?? new Set<string>();
    set.add(sha256OfJson(parameters));
    count.set(readable[i]!, set);
  });
  return combinations.map((c, i) => {
    const { repetition: _repetition, ...parameters } = c;
    const ambiguous = count.get(readable[i]!)!.size > 1;
    const id = `${sweepName}.${readable[i]}${ambiguous ? `-h${sha256OfJson(parameters).slice(0, 6)}` : ""}-r${c.repetition}`;
    return { id, ...c };
  });
}

function shuffled<T>(items: T[], seed: number): T[] {
  const random = createRandom(seed);
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = random.integer(0, i);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
