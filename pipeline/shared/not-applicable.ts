/**
 * A scenario a stage could not answer with the model it was given (outside the model's
 * fitted domain, or where the model predicts no usable bandwidth): the stage records it with
 * the reason, goes on with the other scenarios and the run succeeds with warnings; with
 * `strict` the first one is fatal. Reports print the list, so a reader learns what the model
 * cannot be used for instead of reading a number computed from an extrapolation.
 */
import { InputError } from "./errors";

export interface NotApplicable {
  /** The scenario's name, as the stage's parameters and the report call it. */
  scenario: string;
  reason: string;
}

/** Under `strict`, refuse the first not-applicable scenario; otherwise hand the list back. */
export function settleNotApplicable(stage: string, list: NotApplicable[], strict: boolean): NotApplicable[] {
  if (strict && list.length > 0) {
    const first = list[0]!;
    throw new InputError(
      `${stage}: scenario "${first.scenario}" is not applicable: ${first.reason}` +
        `${list.length > 1 ? ` (and ${list.length - 1} more)` : ""}. Without --strict the run goes on and lists such scenarios in the report`,
    );
  }
  return list;
}
