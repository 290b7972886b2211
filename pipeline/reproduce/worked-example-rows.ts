/**
 * [Y-thesis] §5.4.2, "Exemple : trace d'exécution de l'algorithme d'ordonnancement": the first
 * decision of ScheduleCkpt on n = 8 processes (P, S in decreasing p, T = 60 s), traced through
 * index_bw_max (Table 5.1 and the text's test of process 8) and ks_bw at k0 = 1 and 2 (δ, P_MAX,
 * Tables 5.2 and 5.3). Ours runs the same code as `ckpt schedule` on the example's applications
 * with the published model (docs/science.md §4.3, the faithful reading, static estimator).
 *
 * - Table 5.1 is index_bw_max's walk: the aggregate sizes are sums of S (self-checks) and
 *   bw(np, S_np) the published model's values, so a printed bandwidth must equal ours to one
 *   unit of its last digit (a rounding); further off, the model contradicts it: `erratum`.
 * - The text's bw(8, 2055) and the candidate set I it leads to, likewise.
 * - δ and P_MAX per k0: P_MAX = Σ p over δ (self-check), and δ against our ks_bw's first decision.
 * - Tables 5.2 and 5.3 mark δ and give each process's checkpoint time; the text does not say
 *   whether measured or estimated, so the times are compared with the model's execution of
 *   the printed set (the fluid progression of Algorithm 1) within the model's accuracy. A
 *   process not checkpointed has time 0, which follows from its state: no row of its own.
 */
import { bandwidthEvaluator, type BandwidthModel } from "../fit";
import { SINGLE_PROCESS_BW_RANGE_MB_PER_S } from "../ingest/published-azur-data";
import { createBandwidthOracle, createFluidDevice, exactSimultaneous, resolveScheduleOptions, scheduleCkpt, type Application, type EstimatorName } from "../schedule";
import { InputError } from "../shared/errors";
import { PUBLISHED_E_GLOBAL_PERCENT } from "./published-values";
import { printedNumber, printedText, rowsWhere, type PrintedNumber, type PublishedRow, type PublishedTable, type PublishedTables } from "./published-tables";
import { modelValueRow, roundTo, unitOf } from "./model-value-row";
import { cite, compareWithPublished, round4, type ReproductionRow, type Tolerance } from "./reproduction";

/** The trace tables and the k0 their captions give ("Trace du résultat avec k0 = 1 / 2"). */
const TRACE_TABLES = [
  { name: "table52", label: "Table 5.2", k0: 1 },
  { name: "table53", label: "Table 5.3", k0: 2 },
] as const;

export function workedExampleRows(model: BandwidthModel, published: PublishedTables, options: { bandwidthRelative: number; modelLabel: string }): ReproductionRow[] {
  const text = published.example542;
  const bw = bandwidthEvaluator(model);
  const apps = exampleApplications(text);
  const deadlineS = single(text, "deadline_T").paper;
  const sizeOf = (index: number) => apps[index - 1]!.sizeMb;
  const pOf = (index: number) => apps[index - 1]!.pS;
  const sumSizes = (indices: readonly number[]) => indices.reduce((a, i) => a + sizeOf(i), 0);
  const bwOf = (indices: readonly number[]) => bw(indices.length, sumSizes(indices) / 1000);
  const label = options.modelLabel;
  const rows: ReproductionRow[] = [];

  // Table 5.1: index_bw_max's walk.
  const walk = published.table51;
  const walkRows = walk.rows.map((row) => ({ row, indices: indexList(walk, row, "selected_indices") }));
  const agrees = (w: (typeof walkRows)[number]) => Math.abs(bwOf(w.indices) - printedNumber(walk, w.row, "bw_mb_per_s").paper) <= unitOf(printedNumber(walk, w.row, "bw_mb_per_s").printed) * (1 + 1e-9);
  walkRows.forEach((w, k) => {
    const np = w.indices.length;
    const where = (column: string) => cite("[Y-thesis]", "Table 5.1", `indices ${w.indices.join(",")}`, column);
    const sizeMb = sumSizes(w.indices);
    rows.push(
      compareWithPublished({
        id: `table-5.1/np=${np}/aggregate-size`,
        quantity: `§5.4.2 example, index_bw_max with processes ${w.indices.join(", ")}: aggregate size S_np`,
        source: where("Taille agrégée S_np"),
        ...printedNumber(walk, w.row, "aggregate_size_mb"),
        ours: sizeMb,
        unit: "MB",
        how: `Σ s over the selected processes, S as printed in §5.4.2`,
        selfCheck: true,
      }),
    );
    const printedBw = printedNumber(walk, w.row, "bw_mb_per_s");
    const ours = bwOf(w.indices);
    const previous = k === 0 ? null : walkRows[k - 1]!;
    const next = walkRows[k + 1] ?? null;
    const others = walkRows.filter((o) => o !== w);
    rows.push(
      modelValueRow({
        id: `table-5.1/np=${np}/bw`,
        quantity: `§5.4.2 example, index_bw_max with processes ${w.indices.join(", ")}: bw(np, S_np)`,
        source: where("bw(np, S_np)"),
        printed: printedBw,
        ours,
        unit: "MB/s",
        how: `bw(${np}, ${sizeMb / 1000} GB), ${label}`,
        evidence: () =>
          `the ${label} gives bw(${np}, ${sizeMb / 1000} GB) = ${ours.toFixed(2)} MB/s; ${others.filter(agrees).length} of the table's other ${others.length} rows agree with it to one unit of their last digit` +
          (np === 1
            ? `; the model gives one process ${rangeText(bw(1, 0.1), bw(1, 0.5))} MB/s at any size from 100 to 500 MB, while one process reached ≈ ${SINGLE_PROCESS_BW_RANGE_MB_PER_S.low}–${SINGLE_PROCESS_BW_RANGE_MB_PER_S.high} MB/s on the cluster (docs/science.md §4.5)`
            : "") +
          `. What it changes: ${walkTests(printedBw.paper, ours, previous ? bwOf(previous.indices) : bw(0, 0), next ? bwOf(next.indices) : null, previous === null)}`,
      }),
    );
  });

  // The text's test of process 8 and the candidate set I.
  const printedI = indexList(text, singleRow(text, "index_bw_max_result_I"), "value");
  const all = apps.map((_, k) => k + 1);
  const lastIn = printedI.length;
  const aggregate8 = single(text, "aggregate_size_with_process_8");
  const withAll = sumSizes(all);
  rows.push(
    compareWithPublished({
      id: "example-5.4.2/aggregate-size-8",
      quantity: `§5.4.2 example, index_bw_max's test of process ${all.length}: aggregate size ${sumSizes(printedI)} + ${sizeOf(all.length)}`,
      source: cite("[Y-thesis]", `§5.4.2 (text: ${sumSizes(printedI)}+${sizeOf(all.length)} = ${aggregate8.printed})`),
      ...aggregate8,
      ours: withAll,
      unit: "MB",
      how: `Σ s over processes 1–${all.length}, S as printed in §5.4.2`,
      selfCheck: true,
    }),
  );
  const printed8 = single(text, "bw_with_process_8");
  const bw8 = bw(all.length, withAll / 1000);
  const bwBefore = bwOf(printedI);
  const slips = digitSlips(sizeOf(all.length)).filter((s) => roundTo(bw(all.length, (withAll - sizeOf(all.length) + s) / 1000), printed8.printed) === printed8.paper);
  rows.push(
    modelValueRow({
      id: "example-5.4.2/bw-8",
      quantity: `§5.4.2 example, index_bw_max's test of process ${all.length}: bw(${all.length}, ${withAll})`,
      source: cite("[Y-thesis]", `§5.4.2 (text: bw(${all.length}, ${aggregate8.printed}) = ${printed8.printed.replace(".", ",")}, with a decimal comma)`),
      printed: printed8,
      ours: bw8,
      unit: "MB/s",
      how: `bw(${all.length}, ${withAll / 1000} GB), ${label}`,
      evidence: () =>
        `the ${label} gives bw(${all.length}, ${withAll / 1000} GB) = ${bw8.toFixed(2)} MB/s` +
        (slips.length > 0
          ? `; the printed value is the model's with s_${all.length} = ${slips.join(" or ")} for the printed ${sizeOf(all.length)} (aggregate ${slips.map((s) => withAll - sizeOf(all.length) + s).join(" or ")} MB), one digit off`
          : "") +
        `. The printed ${printed8.printed} < bw(${lastIn}, ${sumSizes(printedI)}) = ${bwBefore.toFixed(3)} keeps process ${all.length} out of I; the model's ${bw8.toFixed(2)} lets it in (row example-5.4.2/candidates)`,
    }),
  );

  const first = (subset: readonly number[], k0: number, estimator: EstimatorName = "static") => firstDecision(apps, subset, model, deadlineS, k0, estimator);
  const ourCandidates = first(all, 0).candidates;
  const consequence = TRACE_TABLES.map(({ k0 }) => {
    const overAll = first(all, k0).started;
    const overPrinted = first(printedI, k0).started;
    return `k0 = ${k0}: ks_bw starts ${setText(overAll)} over our I and ${setText(overPrinted)} over the printed one`;
  });
  rows.push(
    compareWithPublished({
      id: "example-5.4.2/candidates",
      quantity: `§5.4.2 example, index_bw_max's candidate set I: its size (printed I = ${setText(printedI)})`,
      source: cite("[Y-thesis]", "§5.4.2 (text: I, index_bw_max's result)"),
      paper: printedI.length,
      ours: ourCandidates.length,
      unit: "count",
      how: `index_bw_max on the example (ScheduleCkpt's first decision), ${label}: I = ${setText(ourCandidates)}`,
      ...(ourCandidates.length !== printedI.length
        ? {
            erratum: {
              corrected: ourCandidates.length,
              evidence:
                `the printed I follows from the misprinted bw(${all.length}, ${withAll}) (row example-5.4.2/bw-8); with the model's value, index_bw_max (Algorithm 2 adds a candidate on ≤) returns ${setText(ourCandidates)}. ` +
                `What it changes: ${consequence.join("; ")}`,
            },
          }
        : {}),
    }),
  );

  // δ and P_MAX per k0, then the trace tables. The exact optimum bounds every first decision, whatever k0.
  const exact = exactSimultaneous(apps, { model, deadlineS, estimator: "static", domain: "refuse" }, { timeLimitMs: Infinity });
  const exactChosen = exact.chosen.map((k) => k + 1);
  for (const trace of TRACE_TABLES) {
    const k0 = trace.k0;
    const deltaRow = rowsWhere(text, "quantity", "delta").find((r) => r.cells.k0 === String(k0));
    const pMaxRow = rowsWhere(text, "quantity", "P_MAX").find((r) => r.cells.k0 === String(k0));
    if (deltaRow === undefined || pMaxRow === undefined) throw new InputError(`${text.path}: no delta or P_MAX row for k0 = ${k0}; the transcription of §5.4.2 gives both for k0 = 1 and 2`);
    const delta = deltaVector(text, deltaRow);
    const chosen = printedI.filter((_, k) => delta[k] === 1);
    const pMax = printedNumber(text, pMaxRow, "value");
    const ours = first(all, k0);
    const fluid = first(all, k0, "fluid");
    const whole = scheduleCkpt(apps, resolveScheduleOptions({ model, deadlineS, k0, criterion: "p", record: false }));
    const printedEstimateS = staticEstimateS(bw, chosen.map(sizeOf));
    rows.push(
      compareWithPublished({
        id: `example-5.4.2/k0=${k0}/p-max-sum`,
        quantity: `§5.4.2 example, k0 = ${k0}: P_MAX = Σ p over δ = ${setText(chosen)}`,
        source: cite("[Y-thesis]", "§5.4.2", `k0 = ${k0}`, "P_MAX"),
        ...pMax,
        ours: chosen.reduce((a, i) => a + pOf(i), 0),
        unit: "s",
        how: "Σ p over the processes the printed δ selects, P as printed",
        selfCheck: true,
      }),
      compareWithPublished({
        id: `example-5.4.2/k0=${k0}/p-max`,
        quantity: `§5.4.2 example, k0 = ${k0}: P_MAX, Σ p of the processes ks_bw starts`,
        source: cite("[Y-thesis]", "§5.4.2", `k0 = ${k0}`, "P_MAX"),
        ...pMax,
        ours: ours.value,
        unit: "s",
        how: `ks_bw's first decision on the example, k0 = ${k0}, static estimator (eq. 5.3), ${label}: starts ${setText(ours.started)}`,
        whenDiffers:
          `the printed δ = ${setText(chosen)} needs ${printedEstimateS.toFixed(2)} s by eq. 5.3 with the ${label} (the fluid progression: ${Math.max(...fluidFinishS(model, chosen.map(sizeOf))).toFixed(2)} s), ` +
          (printedEstimateS > deadlineS ? `over T = ${deadlineS} s, so ks_bw cannot start it; ` : `within T = ${deadlineS} s; `) +
          `ours starts ${setText(ours.started)} and the whole run saves ${setText(whole.checkpointed.map(Number))} (${whole.ctnys} s); ` +
          (exact.provenOptimal && exact.value < pMax.paper
            ? `no set of the ${apps.length} processes that meets eq. 5.3 within T saves more than ${exact.value} s (${setText(exactChosen)}, the exact optimum of a simultaneous start), so no k0 reaches the printed P_MAX under the model; `
            : "") +
          `with the fluid estimator ks_bw starts ${setText(fluid.started)} (${fluid.value} s)`,
      }),
    );
    const table = published[trace.name];
    const marked = table.rows.filter((r) => printedNumber(table, r, "checkpointed").paper === 1).map((r) => printedNumber(table, r, "process_index").paper);
    const timesS = fluidFinishS(model, marked.map(sizeOf));
    const timeTolerance: Tolerance = {
      relative: options.bandwidthRelative,
      rationale: `measured or estimated, the text does not say: against the model's execution of the printed set, within its published mean error E_global = ${PUBLISHED_E_GLOBAL_PERCENT} %, rounded up`,
    };
    for (const row of table.rows) {
      const index = printedNumber(table, row, "process_index").paper;
      const where = (column: string) => cite("[Y-thesis]", trace.label, `Num ${index}`, column);
      const key = `${trace.label.replace("Table ", "table-")}/process-${index}`;
      const state = printedNumber(table, row, "checkpointed");
      const ourState = ours.started.includes(index) ? 1 : 0;
      rows.push(
        compareWithPublished({
          id: `${key}/size`,
          quantity: `§5.4.2 example, k0 = ${k0}, process ${index}: size`,
          source: where("Taille"),
          ...printedNumber(table, row, "size_mb"),
          ours: sizeOf(index),
          unit: "MB",
          how: "s as printed in §5.4.2's S",
          selfCheck: true,
        }),
        compareWithPublished({
          id: `${key}/checkpointed`,
          quantity: `§5.4.2 example, k0 = ${k0}, process ${index}: checkpointed (1) or not (0)`,
          source: where("État"),
          ...state,
          ours: ourState,
          unit: "1 = checkpointed",
          how: `started by ks_bw's first decision on the example, k0 = ${k0}, static estimator, ${label}: ${setText(ours.started)}`,
          whenDiffers: `the table marks ${setText(marked)} (the text's δ: ${setText(chosen)}; row example-5.4.2/k0=${k0}/p-max); the whole run of ours checkpoints ${setText(whole.checkpointed.map(Number))}`,
        }),
      );
      if (state.paper === 1) {
        const m = marked.length;
        rows.push(
          compareWithPublished({
            id: `${key}/time`,
            quantity: `§5.4.2 example, k0 = ${k0}, process ${index}: checkpoint time`,
            source: where("Temps du ckpt"),
            ...printedNumber(table, row, "checkpoint_time_s"),
            ours: round4(timesS[marked.indexOf(index)]!),
            unit: "s",
            how: `the ${label}'s execution of the set the table marks, ${setText(marked)}, started together: each gets bw(m, V)/m, m and V re-evaluated as checkpoints end (Algorithm 1 lines 10–17)`,
            tolerance: timeTolerance,
            whenDiffers: `eq. 5.3's estimate gives this process ${((sizeOf(index) * m) / bwOf(marked)).toFixed(2)} s`,
          }),
        );
      }
    }
  }
  return rows;
}

/** The example's applications from the text: P and S by process index (1..n, decreasing p). */
function exampleApplications(text: PublishedTable): Application[] {
  const byIndex = (quantity: string) => new Map(rowsWhere(text, "quantity", quantity).map((r) => [printedNumber(text, r, "process_index").paper, printedNumber(text, r, "value").paper]));
  const p = byIndex("p");
  const s = byIndex("s");
  const n = single(text, "n_processes").paper;
  return Array.from({ length: n }, (_, k) => {
    const pS = p.get(k + 1);
    const sizeMb = s.get(k + 1);
    if (pS === undefined || sizeMb === undefined) throw new InputError(`${text.path}: no p or s for process ${k + 1} of n = ${n}; the transcription of §5.4.2 lists both for every process`);
    return { id: String(k + 1), pS, sizeMb };
  });
}

/** The one row of a quantity. */
function singleRow(text: PublishedTable, quantity: string): PublishedRow {
  const found = rowsWhere(text, "quantity", quantity);
  if (found.length !== 1) throw new InputError(`${text.path}: expected one row of quantity ${quantity}, found ${found.length}`);
  return found[0]!;
}

/** The value of a quantity's one row, as a printed number. */
function single(text: PublishedTable, quantity: string): PrintedNumber {
  return printedNumber(text, singleRow(text, quantity), "value");
}

/** "1,2,3" → [1, 2, 3]. */
function indexList(table: PublishedTable, row: PublishedRow, column: string): number[] {
  const cell = printedText(table, row, column);
  const indices = cell.split(",").map((x) => Number(x.trim()));
  if (indices.some((i) => !Number.isInteger(i) || i < 1)) throw new InputError(`${table.path}:${row.line}: column ${column} holds "${cell}", not a list of process indices like "1,2,3"`);
  return indices;
}

/** "(1, 0, 1)" → [1, 0, 1]. */
function deltaVector(table: PublishedTable, row: PublishedRow): number[] {
  const cell = printedText(table, row, "value");
  const values = cell.replace(/[()\s]/g, "").split(",").map(Number);
  if (values.some((v) => v !== 0 && v !== 1)) throw new InputError(`${table.path}:${row.line}: δ "${cell}" is not a vector of 0 and 1 like "(1, 0, 1)"`);
  return values;
}

interface FirstDecision {
  candidates: number[];
  started: number[];
  value: number;
}

/** ScheduleCkpt's first decision on the processes `subset` of the example: I, δ and ks_bw's value. */
function firstDecision(apps: readonly Application[], subset: readonly number[], model: BandwidthModel, deadlineS: number, k0: number, estimator: EstimatorName): FirstDecision {
  const outcome = scheduleCkpt(
    subset.map((i) => apps[i - 1]!),
    resolveScheduleOptions({ model, deadlineS, k0, criterion: "p", estimator, record: true }),
  );
  const decision = outcome.decisions[0]!;
  return { candidates: decision.candidates.map(Number), started: decision.started.map(Number), value: decision.value ?? 0 };
}

/** Eq. 5.3: m · max s / bw(m, Σ s). */
function staticEstimateS(bw: (m: number, vGb: number) => number, sizesMb: readonly number[]): number {
  return (sizesMb.length * Math.max(...sizesMb)) / bw(sizesMb.length, sizesMb.reduce((a, b) => a + b, 0) / 1000);
}

/** When each checkpoint of a set started together ends under the model (the fluid device), s. */
function fluidFinishS(model: BandwidthModel, sizesMb: readonly number[]): number[] {
  const device = createFluidDevice(Float64Array.from(sizesMb), createBandwidthOracle(model), { recordSteps: false });
  sizesMb.forEach((_, k) => device.start(k));
  while (device.runningCount > 0) if (device.advance() < 0) throw new Error(`the model cannot move the example's checkpoints: ${device.stall?.reason}`);
  return Array.from(device.finishS);
}

/** What index_bw_max's tests bw(k−1) ≤ bw(k) ≤ bw(k+1) around a step say with the printed and with our value. */
function walkTests(printed: number, ours: number, before: number, after: number | null, first: boolean): string {
  const text = (value: number) => `${before.toFixed(2)}${first ? " (bw(0, 0) = e)" : ""} ≤ ${value.toFixed(2)}${after === null ? "" : ` ≤ ${after.toFixed(2)}`}`;
  const holds = (value: number) => before <= value && (after === null || value <= after);
  if (holds(printed) === holds(ours)) return `nothing in index_bw_max's walk, whose tests hold ${holds(ours) ? "" : "not "}with either value (${text(printed)}; ${text(ours)})`;
  return `index_bw_max's walk: ${text(printed)} ${holds(printed) ? "holds" : "fails"}, ${text(ours)} ${holds(ours) ? "holds" : "fails"}`;
}

/** The sizes one digit away from `sizeMb` (another digit at one place, the same number of digits). */
function digitSlips(sizeMb: number): number[] {
  const digits = String(sizeMb);
  const out: number[] = [];
  for (let k = 0; k < digits.length; k++) {
    for (let d = k === 0 ? 1 : 0; d <= 9; d++) {
      if (String(d) !== digits[k]) out.push(Number(digits.slice(0, k) + d + digits.slice(k + 1)));
    }
  }
  return out;
}

/** "8.61" when both ends print the same, else "8.60–8.61". */
function rangeText(a: number, b: number): string {
  const [low, high] = [Math.min(a, b).toFixed(2), Math.max(a, b).toFixed(2)];
  return low === high ? low : `${low}–${high}`;
}

function setText(indices: readonly number[]): string {
  return `{${indices.join(", ")}}`;
}


