/**
 * The availability and unavailability laws fitted to nine Failure Trace Archive traces
 * (exponential, Weibull, log-normal and gamma fits, as OpenDC hard-codes them;
 * data/availability/fta-fitted-models.csv, provenance in data/availability/PROVENANCE.md).
 *
 * `fitted:<trace>/<distribution>` names one pair, e.g. `fitted:Microsoft99/weibull`: where an
 * availability law is wanted it is the fit of the available intervals, where an
 * unavailability law is wanted the fit of the unavailable ones. The file's parameters are in
 * hours with Apache Commons Math's parameterisations — exponential by its mean, Weibull (shape
 * α, scale β), log-normal (μ and σ of ln hours), gamma (shape, scale) — which map one to one
 * onto the law strings of law-string.ts with `unit=h`.
 */
import { InputError, atLine } from "../../shared/errors";
import { readCsvRows } from "../../shared/read-csv-rows";

export type FittedInterval = "availability" | "unavailability";

/** The shipped file, relative to the project root. */
export const FITTED_MODELS_FILE = "data/availability/fta-fitted-models.csv";

const DISTRIBUTIONS: Record<string, (p1: number, p2: number) => string> = {
  exponential: (mean) => `exp:mean=${mean},unit=h`,
  weibull: (shape, scale) => `weibull:shape=${shape},scale=${scale},unit=h`,
  lognormal: (mu, sigma) => `lognormal:mu=${mu},sigma=${sigma},unit=h`,
  gamma: (shape, scale) => `gamma:shape=${shape},scale=${scale},unit=h`,
};

/** Whether a law text names a fitted model (`fitted:…`). */
export function isFittedLaw(text: string): boolean {
  return /^\s*fitted\s*:/i.test(text);
}

/**
 * The law string of `fitted:<trace>/<distribution>` for one interval, from the text of the
 * fitted-models file (`file` names it in messages).
 * @example fittedLawString("fitted:Microsoft99/weibull", "availability", csv, file) // "weibull:shape=0.55,scale=35.3,unit=h"
 */
export function fittedLawString(text: string, interval: FittedInterval, csvText: string, file: string): string {
  const match = /^\s*fitted\s*:\s*([^/\s]+)\s*\/\s*([A-Za-z-]+)\s*$/i.exec(text);
  const rows = readCsvRows(csvText, file);
  const header = rows[0]?.cells ?? [];
  const column = (name: string) => {
    const i = header.indexOf(name);
    if (i < 0) throw new InputError(atLine(file, rows[0]?.line ?? 1, `no "${name}" column; the fitted-models file has trace, distribution, interval, param1_name, param1, param2_name, param2, units`));
    return i;
  };
  const [traceColumn, distributionColumn, intervalColumn, p1Column, p2Column, unitsColumn] = ["trace", "distribution", "interval", "param1", "param2", "units"].map(column) as [number, number, number, number, number, number];
  const models = rows.slice(1);
  const traces = [...new Set(models.map((r) => r.cells[traceColumn]!))];
  const usage = `fitted:<trace>/<distribution> with a trace among ${traces.join(", ")} and a distribution among ${Object.keys(DISTRIBUTIONS).join(", ")}, e.g. fitted:Microsoft99/weibull`;
  if (match === null) throw new InputError(`law "${text}": expected ${usage}`);
  const [, trace, distributionText] = match as unknown as [string, string, string];
  const distribution = distributionText.toLowerCase().replace("-", "");
  const row = models.find(
    (r) =>
      r.cells[traceColumn]!.toLowerCase() === trace.toLowerCase() &&
      r.cells[distributionColumn]!.toLowerCase() === distribution &&
      r.cells[intervalColumn]!.toLowerCase().startsWith(interval),
  );
  if (row === undefined || DISTRIBUTIONS[distribution] === undefined) throw new InputError(`law "${text}": ${file} has no ${interval} model "${trace}/${distributionText}"; use ${usage}`);
  const number = (i: number, what: string) => {
    const value = Number(row.cells[i]);
    if (row.cells[i] === "" || !Number.isFinite(value)) throw new InputError(atLine(file, row.line, `${what} is not a number ("${row.cells[i]}")`));
    return value;
  };
  if (row.cells[unitsColumn] !== "hours") throw new InputError(atLine(file, row.line, `units must be "hours", found "${row.cells[unitsColumn]}"`));
  return DISTRIBUTIONS[distribution](number(p1Column, "param1"), distribution === "exponential" ? NaN : number(p2Column, "param2"));
}
