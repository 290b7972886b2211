/**
 * The law string syntax of the command line, and its inverse for reports.
 *
 *     exp:rate=<per unit>            exp:mean=<duration>
 *     weibull:shape=<k>,scale=<duration>
 *     hyperexp:p=<p1>,<p2>,…;mu=<μ1>,<μ2>,…;param=rate|mean
 *     lognormal:mu=<mean of ln t>,sigma=<sd of ln t>
 *     gamma:shape=<k>,scale=<duration>
 *     empirical:<csv file of durations>
 *
 * Every law also takes `unit=s|min|h|d` (default s), the unit of its time-valued
 * parameters (scale, mean, rates per unit, hyper-exponential μ, log-normal's t, the
 * empirical file's durations, the gamma's scale): `weibull:shape=0.431,scale=1.682,unit=h` is [BKT] Table I's
 * availability law. Parameters are separated by `;`, or by `,` when the comma is followed
 * by `name=` (so lists such as `p=0.4,0.6` need no quoting). Aliases: exponential,
 * hyperexponential, log-normal.
 *
 * Decisions: the hyper-exponential's `param` has no default, because [BKT] does not say
 * whether its μ are rates or means and the two readings differ threefold in mean
 * (docs/science.md §5.5). Its probabilities must sum to 1; a sum within 0.01 of 1 (the [BKT] values
 * sum to 1.001) is renormalised with a warning, anything further is refused.
 */
import { InputError } from "../../shared/errors";
import type { HyperExponentialSpec, LawSpec } from "./failure-law";

export const TIME_UNITS_SECONDS: Readonly<Record<string, number>> = { s: 1, min: 60, h: 3600, d: 86400 };

export const LAW_EXAMPLES = [
  "exp:rate=1e-4",
  "exp:mean=2.7,unit=h",
  "weibull:shape=0.431,scale=6055",
  "hyperexp:p=0.398,0.305,0.298;mu=0.031,11.566,1.322;param=rate;unit=h",
  "lognormal:mu=8.5,sigma=1.2",
  "gamma:shape=0.5,scale=20,unit=h",
  "empirical:availability.csv",
];

export interface ParsedLaw {
  spec: LawSpec;
  /** Things the user should know (a renormalisation…), for stderr and the JSON output. */
  warnings: string[];
}

/** Reads a durations file for `empirical:<path>`; returns the numbers as written (in `unit`). */
export type DurationsLoader = (path: string) => number[];

/** The laws a law string names (residual and competing laws are derived by the simulator, not written). */
type WrittenKind = Exclude<LawSpec["kind"], "residual" | "competing">;

const KIND_ALIASES: Record<string, WrittenKind> = {
  exp: "exponential",
  exponential: "exponential",
  weibull: "weibull",
  hyperexp: "hyperexponential",
  hyperexponential: "hyperexponential",
  lognormal: "lognormal",
  "log-normal": "lognormal",
  gamma: "gamma",
  empirical: "empirical",
};

const KEYS: Record<WrittenKind, string[]> = {
  exponential: ["rate", "mean", "unit"],
  weibull: ["shape", "scale", "unit"],
  hyperexponential: ["p", "mu", "param", "unit"],
  lognormal: ["mu", "sigma", "unit"],
  gamma: ["shape", "scale", "unit"],
  empirical: ["unit"],
};

function fail(text: string, what: string): never {
  throw new InputError(`law "${text}": ${what}. Examples: ${LAW_EXAMPLES.join("  ")}`);
}

function parseNumber(text: string, key: string, raw: string): number {
  const value = raw.trim() === "" ? NaN : Number(raw);
  if (!Number.isFinite(value)) fail(text, `${key}=${raw} is not a number`);
  return value;
}

function parseList(text: string, key: string, raw: string): number[] {
  return raw.split(",").map((item, i) => {
    const value = item.trim() === "" ? NaN : Number(item);
    if (!Number.isFinite(value)) fail(text, `${key}: item ${i + 1} ("${item}") is not a number`);
    return value;
  });
}

/**
 * Parse a law string into a spec (times in seconds). `loadDurations` is called for
 * `empirical:<path>` only; the CLI passes a CSV reader, tests a stub.
 * @example parseLawString("weibull:shape=0.431,scale=1.682,unit=h").spec // { kind: "weibull", shape: 0.431, scaleSeconds: 6055.2 }
 */
export function parseLawString(text: string, loadDurations?: DurationsLoader): ParsedLaw {
  const colon = text.indexOf(":");
  if (colon < 0) fail(text, `expected <kind>:<parameters>, found no ":"`);
  const kindText = text.slice(0, colon).trim().toLowerCase();
  const kind = KIND_ALIASES[kindText];
  if (kind === undefined) fail(text, `unknown law "${kindText}"; known laws: exp, weibull, hyperexp, lognormal, gamma, empirical`);
  const rest = text.slice(colon + 1);
  const warnings: string[] = [];

  const parts = kind === "empirical" ? rest.split(/;(?=\s*unit\s*=)/) : rest.split(/[;,](?=\s*[A-Za-z_]+\s*=)/);
  const params = new Map<string, string>();
  for (const part of kind === "empirical" ? parts.slice(1) : parts) {
    if (part.trim() === "") continue;
    const eq = part.indexOf("=");
    if (eq < 0) fail(text, `expected name=value, found "${part}"`);
    const key = part.slice(0, eq).trim();
    if (!KEYS[kind].includes(key)) fail(text, `${kind} takes ${KEYS[kind].join(", ")}; found "${key}"`);
    if (params.has(key)) fail(text, `"${key}" is given twice`);
    params.set(key, part.slice(eq + 1).trim());
  }
  const unitName = params.get("unit") ?? "s";
  const unit = TIME_UNITS_SECONDS[unitName];
  if (unit === undefined) fail(text, `unit must be one of ${Object.keys(TIME_UNITS_SECONDS).join(", ")}; found "${unitName}"`);
  const required = (key: string): string => {
    const value = params.get(key);
    if (value === undefined) fail(text, `${kind} needs ${key}=`);
    return value;
  };

  switch (kind) {
    case "exponential": {
      const rate = params.get("rate");
      const mean = params.get("mean");
      if ((rate === undefined) === (mean === undefined)) fail(text, "exp needs exactly one of rate= (per unit) or mean= (in unit)");
      const ratePerSecond = rate !== undefined ? parseNumber(text, "rate", rate) / unit : 1 / (parseNumber(text, "mean", mean!) * unit);
      return { spec: { kind, ratePerSecond }, warnings };
    }
    case "weibull":
      return {
        spec: { kind, shape: parseNumber(text, "shape", required("shape")), scaleSeconds: parseNumber(text, "scale", required("scale")) * unit },
        warnings,
      };
    case "gamma":
      return {
        spec: { kind, shape: parseNumber(text, "shape", required("shape")), scaleSeconds: parseNumber(text, "scale", required("scale")) * unit },
        warnings,
      };
    case "lognormal":
      return {
        spec: { kind, mu: parseNumber(text, "mu", required("mu")) + Math.log(unit), sigma: parseNumber(text, "sigma", required("sigma")) },
        warnings,
      };
    case "hyperexponential": {
      let probabilities = parseList(text, "p", required("p"));
      const mu = parseList(text, "mu", required("mu"));
      const reading = params.get("param");
      if (reading === undefined) {
        fail(text, "hyperexp needs param=rate or param=mean: [BKT] does not say whether its μ are rates or means (docs/science.md §5.5), so the reading must be explicit");
      }
      if (reading !== "rate" && reading !== "mean") fail(text, `param must be "rate" or "mean", found "${reading}"`);
      if (probabilities.length !== mu.length) fail(text, `p has ${probabilities.length} values but mu has ${mu.length}`);
      const total = probabilities.reduce((s, p) => s + p, 0);
      if (Math.abs(total - 1) > 1e-9) {
        if (Math.abs(total - 1) > 0.01 || probabilities.some((p) => p < 0)) fail(text, `the probabilities p must sum to 1, they sum to ${total}`);
        probabilities = probabilities.map((p) => p / total);
        warnings.push(`hyperexp: probabilities summed to ${Number(total.toPrecision(12))}, renormalised to sum to 1`);
      }
      const ratesPerSecond = mu.map((x) => (reading === "rate" ? x / unit : 1 / (x * unit)));
      const spec: HyperExponentialSpec = { kind, probabilities, ratesPerSecond, reading };
      return { spec, warnings };
    }
    case "empirical": {
      const path = parts[0]!.trim();
      if (path === "") fail(text, "empirical needs a file: empirical:<csv of durations>");
      if (loadDurations === undefined) fail(text, "empirical laws need a file reader (only the command line reads files)");
      const durations = loadDurations(path).map((x) => x * unit);
      return { spec: { kind, durationsSeconds: durations, source: path }, warnings };
    }
  }
}

/**
 * The law string of a spec, every time-valued parameter with its unit: written in the
 * largest unit (d, h, min, s) in which the law's characteristic time — the Weibull's and
 * gamma's scale, the exponential's and hyper-exponential's mean, the log-normal's median —
 * is at least 1, and that unit named (`weibull:shape=0.431,scale=1.682,unit=h`, as [BKT]
 * Table I prints it, not `scale=6055.2`). It parses back to the same law. An empirical law is
 * named by its source file; a law the simulator derives (residual, competing) by a name no
 * law string parses.
 */
export function formatLawString(spec: LawSpec): string {
  const n = (x: number) => String(Number(x.toPrecision(12)));
  const inUnit = (characteristicSeconds: number): [number, string] => {
    const [name, seconds] = Object.entries(TIME_UNITS_SECONDS)
      .sort((a, b) => b[1] - a[1])
      .find(([, seconds]) => characteristicSeconds >= seconds) ?? ["s", 1];
    return [seconds, name];
  };
  switch (spec.kind) {
    case "exponential": {
      const [unit, name] = inUnit(1 / spec.ratePerSecond);
      return `exp:mean=${n(1 / spec.ratePerSecond / unit)},unit=${name}`;
    }
    case "weibull":
    case "gamma": {
      const [unit, name] = inUnit(spec.scaleSeconds);
      return `${spec.kind}:shape=${n(spec.shape)},scale=${n(spec.scaleSeconds / unit)},unit=${name}`;
    }
    case "lognormal": {
      const [unit, name] = inUnit(Math.exp(spec.mu));
      return `lognormal:mu=${n(spec.mu - Math.log(unit))},sigma=${n(spec.sigma)},unit=${name}`;
    }
    case "hyperexponential": {
      const [unit, name] = inUnit(spec.probabilities.reduce((sum, p, i) => sum + p / spec.ratesPerSecond[i]!, 0));
      const mu = spec.ratesPerSecond.map((rate) => (spec.reading === "rate" ? rate * unit : 1 / (rate * unit)));
      return `hyperexp:p=${spec.probabilities.map(n).join(",")};mu=${mu.map(n).join(",")};param=${spec.reading};unit=${name}`;
    }
    case "empirical":
      return `empirical:${spec.source ?? `(${spec.durationsSeconds.length} durations)`}`;
    // Laws the simulator derives (no law string reads them back): named for reports only.
    case "residual":
      return `residual(age=${n(spec.ageSeconds)}):${formatLawString(spec.base)}`;
    case "competing":
      return `competing(${spec.laws.map(formatLawString).join(" | ")})`;
  }
}
