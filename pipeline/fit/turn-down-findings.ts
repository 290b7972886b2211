/**
 * The turn-down artefacts of a fit over the range its figures draw (turn-down-artefacts.ts),
 * and the forms that follow the data instead: among the candidates the fit compared, or —
 * when one form was asked for — among every form fitted on the same observations (as
 * `--form auto` would). The turn-down stage (stages/turn-down-stage.ts) makes them; the
 * report's summary names them.
 */
import { candidateModel } from "./candidate-model";
import type { BandwidthModel } from "./model";
import type { FormCandidate, FormSelection } from "./select-form";
import { turnDownArtefacts, type TurnDownArtefact } from "./turn-down-artefacts";
import type { SizeSeries } from "../ingest/observations";

export interface TurnDownFindings {
  /** The curves are checked over m = 1..mMax (the figures' range). */
  mMax: number;
  artefacts: TurnDownArtefact[];
  /** The other forms scored by cross-validation whose curves do not turn down, lowest CV RMSE first (none when there is no artefact). */
  followers: FormCandidate[];
}

/**
 * `compareForms` scores every form on the fit's observations; it is called only when the
 * fit chose no form itself and some curve turns down (it refits every form, seconds).
 */
export function turnDownFindings(
  fit: { model: BandwidthModel; selection?: FormSelection },
  series: readonly SizeSeries[],
  mMax: number,
  compareForms: () => FormCandidate[],
): TurnDownFindings {
  const artefacts = turnDownArtefacts(fit.model, series, mMax);
  if (artefacts.length === 0) return { mMax, artefacts, followers: [] };
  const followers = (fit.selection?.candidates ?? compareForms())
    .filter((c) => c.form !== fit.model.form && c.cvRmseMbPerS !== null)
    .sort((a, b) => a.cvRmseMbPerS! - b.cvRmseMbPerS!)
    .filter((c) => turnDownArtefacts(candidateModel(fit.model, c)!, series, mMax).length === 0);
  return { mMax, artefacts, followers };
}
