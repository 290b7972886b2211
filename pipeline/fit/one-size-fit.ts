/**
 * A fit on one size per writer (docs/science.md §3.5.1): the most common way storage
 * benchmarks are published (IOR's and fio's scaling runs, m writers of one v each). With
 * V = m·v for a single v, a form's dependence on the size cannot be told from its
 * dependence on m — the papers' V² becomes v²·m², a multiple of m²; a size exponent γ makes
 * (V/V₀)^γ = (m/m₀)^γ, a power of m — so the fit keeps the m-dependence alone:
 *
 * - the polynomial forms keep, for each power of m that V = m·v leaves (m^(i+j) from
 *   m^i·V^j), the term with the lowest power of V, and hold the others at 0: the paper form
 *   fits a·m²V² + b·m² + d·m + e (c·V² ≡ c·v²·m² is b's column), the full form the five
 *   terms a00, a10, a20, a21, a22 (a quartic in m);
 * - the project's forms hold their size exponents at 0 (`FormParameter.sizeExponent`: the
 *   USL's γ, the link-capacity form's α and β).
 *
 * The held parameters are set, not fitted (their value 0 is in the model's coefficients, so
 * the model evaluates as any other of its form), and the model's domain is limited to the
 * measured size (`ModelDomain.writerGbMin = writerGbMax = v`): every use at another size per
 * writer is outside it, flagged as any other extrapolation.
 *
 * Solved as a least-squares problem in the fitted parameters by the nonlinear solver
 * (fit-nonlinear.ts) — for the polynomial forms, linear in them, so Levenberg–Marquardt
 * reaches the least-squares solution in a few steps — with its statistics and its refusals
 * (≥ 3 distinct m, one more distinct m than fitted parameters, a Jacobian that determines
 * every parameter).
 */
import { InputError } from "../shared/errors";
import type { BandwidthForm, FormCells, FormParameter } from "./forms/bandwidth-form";
import { termValue, type DesignCell } from "./least-squares";
import { fitNonlinearCells, type NonlinearFit } from "./fit-nonlinear";
import { formOf, parametersOf, WRITER_SIZE_TOLERANCE, type BandwidthModel } from "./model";

/** The one size per writer V/m (GB) every cell shares, or null when they span several. */
export function singleWriterSizeGb(cells: readonly Pick<DesignCell, "m" | "vGb">[]): number | null {
  if (cells.length === 0) return null;
  let low = Infinity;
  let high = -Infinity;
  for (const cell of cells) {
    const writerGb = cell.vGb / cell.m;
    if (!(writerGb > 0) || !Number.isFinite(writerGb)) return null;
    low = Math.min(low, writerGb);
    high = Math.max(high, writerGb);
  }
  return high - low <= WRITER_SIZE_TOLERANCE * high ? low : null;
}

/** The names of a form's parameters held at 0 by a fit on one size per writer. */
export function parametersHeldAtOneSize(form: BandwidthForm): string[] {
  if (form.terms !== undefined) {
    // m^i V^j becomes v^j m^(i+j): per power of m, the term with the lowest power of V stays.
    const kept = new Map<number, string>();
    for (const term of [...form.terms].sort((a, b) => a.vPower - b.vPower)) {
      const power = term.mPower + term.vPower;
      if (!kept.has(power)) kept.set(power, term.name);
    }
    const keptNames = new Set(kept.values());
    return form.terms.filter((term) => !keptNames.has(term.name)).map((term) => term.name);
  }
  return form.parameters.filter((p) => p.sizeExponent).map((p) => p.name);
}

/** Why the cells cannot identify the m-shape of `fittedCount` parameters, or null. */
function oneSizeGap(cells: FormCells, fittedCount: number, formName: string): string | null {
  const ms = new Set<number>();
  for (let i = 0; i < cells.m.length; i++) ms.add(cells.m[i]!);
  const needed = Math.max(3, fittedCount + 1);
  if (ms.size < needed) {
    return `the points have one size per writer and ${ms.size} distinct number${ms.size === 1 ? "" : "s"} of processes; at one size the ${formName} form's ${fittedCount} parameters in m need at least ${needed}`;
  }
  return null;
}

/**
 * The parameters a model's fit estimated, by name: its form's unfixed ones, less those a fit
 * on one size per writer held at 0 (a domain of one size per writer says it was one).
 */
export function fittedParameterNames(model: Pick<BandwidthModel, "form" | "coefficients" | "domain">): string[] {
  const d = model.domain;
  const oneSize = d.writerGbMin !== undefined && d.writerGbMin === d.writerGbMax;
  const held = new Set(oneSize ? parametersHeldAtOneSize(formOf(model.form)) : []);
  return parametersOf(model)
    .filter((p) => !p.fixed && !held.has(p.name))
    .map((p) => p.name);
}

/** The form as fitted on one size per writer: the held parameters fixed at 0, the rest fitted. */
export function oneSizeForm(form: BandwidthForm): BandwidthForm {
  const held = new Set(parametersHeldAtOneSize(form));
  const parameters: FormParameter[] = form.parameters.map((p) =>
    held.has(p.name) ? { ...p, fixed: true, meaning: `${p.meaning} (held at 0: one size per writer cannot tell it from the m-shape)` } : p,
  );
  const heldIndex = form.parameters.flatMap((p, j) => (held.has(p.name) ? [j] : []));
  const fittedCount = parameters.filter((p) => !p.fixed).length;
  const terms = form.terms;
  const gradient =
    terms !== undefined
      ? (k: Float64Array, m: number, vGb: number, out: Float64Array): number => {
          for (let j = 0; j < terms.length; j++) out[j] = termValue(terms[j]!, m, vGb);
          return form.evaluate(k, m, vGb);
        }
      : form.gradient!;
  const hold = (start: Float64Array): Float64Array => {
    const copy = Float64Array.from(start);
    for (const j of heldIndex) copy[j] = 0;
    return copy;
  };
  return {
    ...form,
    parameters,
    gradient,
    fixedFromData: (cells) => ({ ...(form.fixedFromData?.(cells) ?? {}), ...Object.fromEntries([...held].map((name) => [name, 0])) }),
    // Linear in its parameters: any start reaches the least-squares solution.
    starts: (cells, fixed) => (form.starts ? form.starts(cells, fixed).map(hold) : [new Float64Array(form.parameters.length)]),
    structuralGap: (cells) => oneSizeGap(cells, fittedCount, form.name),
  };
}

/** What a one-size fit adds to the solver's result: the size, the held parameters, the method. */
export interface OneSizeFit {
  fit: NonlinearFit;
  form: BandwidthForm;
  writerGb: number;
  held: string[];
  method: string;
}

/** Fit `form`'s m-dependence on cells of one size per writer; throws an `InputError` naming what the data lack. */
export function fitOneSizeCells(cells: readonly DesignCell[], form: BandwidthForm): OneSizeFit {
  const writerGb = singleWriterSizeGb(cells);
  if (writerGb === null) throw new InputError(`cannot fit the ${form.name} form on one size per writer: the points have several sizes V/m`);
  const derived = oneSizeForm(form);
  const held = parametersHeldAtOneSize(form);
  const fit = fitNonlinearCells(cells, derived);
  const solver = form.terms !== undefined ? "least squares in the terms kept (linear in them), solved by Levenberg–Marquardt (pipeline/fit/levenberg-marquardt.ts)" : "nonlinear least squares, Levenberg–Marquardt from the form's starting points (pipeline/fit/levenberg-marquardt.ts)";
  return {
    fit,
    form: derived,
    writerGb,
    held,
    method: `${solver}, on one size per writer (V/m = ${writerGb} GB) with ${held.join(", ")} held at 0; docs/science.md §3.5.1`,
  };
}

/** The note a model fitted on one size per writer carries. */
export function oneSizeNote(formName: string, writerGb: number, held: readonly string[], symbols: Readonly<Record<string, string>>): string {
  return (
    `one size per writer (V/m = ${Number((writerGb * 1000).toPrecision(6))} MB): the ${formName} form's m-dependence alone is fitted, with ${held.map((name) => symbols[name] ?? name).join(", ")} held at 0 ` +
    `(one size cannot tell a dependence on the size from one on m); the model holds at that size only, and every use at another size per writer is outside its fitted domain`
  );
}
