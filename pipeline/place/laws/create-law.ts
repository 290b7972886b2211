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

export function createLaw(spec: LawSpec): FailureLaw {
  switch (spec.kind) {
    case "exponential":
      return exponentialLaw(spec);
    case "weibull":
      return weibullLaw(spec);
    case "hyperexponential":
      return hyperExponentialLaw(spec);
    case "lognormal":
      return logNormalLaw(spec);
    case "gamma":
      return gammaLaw(spec);
    case "empirical":
      return empiricalLaw(spec);
    case "residual":
      return residualLaw(createLaw(spec.base), spec.ageSeconds);
    case "competing":
      return competingLaw(spec.laws.map(createLaw));
  }
}
