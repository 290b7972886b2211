/**
 * The hyper-exponential law, a mixture of exponentials: f(t) = Σ_i p_i λ_i e^{−λ_i t}
 * (docs/science.md §5.5; [BKT] Table I, host unavailability).
 *
 * [BKT] gives phase parameters μ_i without saying whether they are rates or means
 * (p = (0.398, 0.305, 0.298), μ = (0.031, 11.566, 1.322) h: rates give a 13.1 h mean,
 * means 3.9 h). The spec therefore always carries both the resolved rates and the
 * `reading` that produced them; the law string makes the reading mandatory
 * (`param=rate|mean`, parse-law.ts). Functions are the p-weighted sums of the exponential
 * ones, each term exact in its tail.
 */
import { InputError } from "../../shared/errors";
import type { Random } from "../../shared/random";
import type { FailureLaw, HyperExponentialSpec } from "./failure-law";
import { regularizedGammaP } from "../../stats/incomplete-gamma";

export function hyperExponentialLaw(spec: HyperExponentialSpec): FailureLaw {
  const { probabilities: p, ratesPerSecond: rates } = spec;
  const example = "e.g. hyperexp:p=0.4,0.6;mu=0.031,1.3;param=rate;unit=h";
  if (p.length === 0 || p.length !== rates.length) {
    throw new InputError(`hyper-exponential law: needs as many probabilities as phase parameters (≥ 1), got ${p.length} and ${rates.length}; ${example}`);
  }
  p.forEach((pi, i) => {
    if (!(pi >= 0 && pi <= 1)) throw new InputError(`hyper-exponential law: probability p${i + 1} must be in [0, 1], got ${pi}; ${example}`);
  });
  rates.forEach((r, i) => {
    if (!(r > 0) || !Number.isFinite(r)) {
      throw new InputError(`hyper-exponential law: phase ${i + 1}'s ${spec.reading} must give a finite rate > 0, got ${r}/s; ${example}`);
    }
  });
  const total = p.reduce((s, x) => s + x, 0);
  if (Math.abs(total - 1) > 1e-9) {
    throw new InputError(`hyper-exponential law: probabilities must sum to 1, got ${total}; ${example}`);
  }
  const means = rates.map((r) => 1 / r);
  const mean = p.reduce((s, pi, i) => s + pi * means[i]!, 0);
  const phases = p.length;
  const sum = (term: (i: number) => number) => {
    let s = 0;
    for (let i = 0; i < phases; i++) s += p[i]! * term(i);
    return s;
  };
  return {
    spec,
    description: `hyper-exponential(p ${p.map((x) => Number(x.toPrecision(4))).join("/")}, means ${means
      .map((m) => Number(m.toPrecision(5)))
      .join("/")} s; μ read as ${spec.reading}s)`,
    meanSeconds: mean,
    cdf: (t) => (t <= 0 ? 0 : sum((i) => -Math.expm1(-rates[i]! * t))),
    survival: (t) => (t <= 0 ? 1 : sum((i) => Math.exp(-rates[i]! * t))),
    pdf: (t) => (t < 0 ? 0 : sum((i) => rates[i]! * Math.exp(-rates[i]! * t))),
    partialExpectation: (t) => (t <= 0 ? 0 : sum((i) => means[i]! * regularizedGammaP(2, rates[i]! * t, 0))),
    upperPartialExpectation: (t) => (t <= 0 ? mean : sum((i) => Math.exp(-rates[i]! * t) * (t + means[i]!))),
    sample(random: Random) {
      let u = random.next();
      let phase = 0;
      while (phase < phases - 1 && u >= p[phase]!) u -= p[phase++]!;
      return -Math.log1p(-random.next()) * means[phase]!;
    },
  };
}
