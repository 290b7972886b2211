import type { BandwidthModel } from "./model";
import type { FormSelection } from "./select-form";

/** A candidate as a model to evaluate: its parameters on the chosen model's domain (all forms were fitted on the same points). */
export function candidateModel(chosen: BandwidthModel, candidate: FormSelection["candidates"][number]): BandwidthModel | null {
  if (candidate.parameters === null) return null;
  const { selection: _selection, ...rest } = chosen;
  return { ...rest, name: `${candidate.form} form`, form: candidate.form, coefficients: candidate.parameters };
}
