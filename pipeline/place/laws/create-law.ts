/** Build the evaluable `FailureLaw` a `LawSpec` describes (checking its parameters). */
import type { FailureLaw, LawSpec } from "./failure-law";
import { empiricalLaw } from "./empirical";
import { exponentialLaw } from "./exponential";
import { gammaLaw } from "./gamma";
import { hyperExponentialLaw } from "./hyper-exponential";
import { logNormalLaw } from "./log-normal";
import { residualLaw } from "./residual";
import { competingLaw } from "./competing";
import { weibullLaw } from "./weibull";

/** Each kind's builder; the two compound kinds build their parts first. */
const BUILDERS: { [K in LawSpec["kind"]]: (spec: Extract<LawSpec, { kind: K }>) => FailureLaw } = {
  exponential: exponentialLaw,
  weibull: weibullLaw,
  hyperexponential: hyperExponentialLaw,
  lognormal: logNormalLaw,
  gamma: gammaLaw,
  empirical: empiricalLaw,
  residual: (spec) => residualLaw(createLaw(spec.base), spec.ageSeconds),
  competing: (spec) => competingLaw(spec.laws.map(createLaw)),
};

export function createLaw(spec: LawSpec): FailureLaw {
  return (BUILDERS[spec.kind] as (spec: LawSpec) => FailureLaw)(spec);
}
