/**
 * Every form of the bandwidth model, by name: the one place a form is registered. The
 * evaluator, the fits, cross-validation, `--form auto`, ScheduleCkpt's reachability, the
 * figures and the model cards all find a model's form here; a new form is one file and one
 * line below. Order matters only for display and for ties between forms with as many
 * parameters (the earlier one wins).
 */
import type { BandwidthForm } from "./bandwidth-form";
import { EMPIRICAL_FORM } from "./empirical-form";
import { FULL_FORM } from "./full-form";
import { LINK_CAPACITY_FORM } from "./link-capacity-form";
import { PAPER_FORM } from "./paper-form";
import { USL_FORM } from "./usl-form";

export const BANDWIDTH_FORMS = {
  paper: PAPER_FORM,
  full: FULL_FORM,
  usl: USL_FORM,
  "link-capacity": LINK_CAPACITY_FORM,
  empirical: EMPIRICAL_FORM,
} as const satisfies Record<string, BandwidthForm>;

export type ModelForm = keyof typeof BANDWIDTH_FORMS;

export const MODEL_FORMS = Object.keys(BANDWIDTH_FORMS) as ModelForm[];

export function isModelForm(name: unknown): name is ModelForm {
  return typeof name === "string" && Object.prototype.hasOwnProperty.call(BANDWIDTH_FORMS, name);
}

/** The form of that name (names are checked where models are read: load-model.ts). */
export function formOf(name: ModelForm): BandwidthForm {
  return BANDWIDTH_FORMS[name];
}

/** The parameters a fit estimates (the fixed ones are set from the data). */
export function fittedParameterCount(form: BandwidthForm): number {
  return form.parameters.filter((p) => !p.fixed).length;
}
