/**
 * What `--form auto` says when cross-validation keeps the empirical form
 * (forms/empirical-form.ts): that no smooth form follows the data as well — with the best
 * one's held-out error next to the empirical form's — and what that model is good for: plans
 * inside the measured cells, nothing outside them.
 */
import type { FormSelection } from "./select-form";

/**
 * The note, or null when another form was chosen.
 * @example empiricalOnlyNote(selection) // "only the empirical form follows the data: …"
 */
export function empiricalOnlyNote(selection: FormSelection): string | null {
  if (selection.chosen !== "empirical") return null;
  const empirical = selection.candidates.find((c) => c.form === "empirical")!;
  const smooth = selection.candidates.filter((c) => c.form !== "empirical");
  const scored = smooth.filter((c) => c.cvRmseMbPerS !== null);
  const inside = "it answers inside the measured cells only (between them by interpolation, with the replicates' spread as its uncertainty); every use outside them is an extrapolation, flagged as such";
  if (empirical.cvRmseMbPerS === null) {
    return `the empirical form was kept without cross-validation (no form could be cross-validated on these points): ${inside}`;
  }
  if (scored.length === 0) {
    return `only the empirical form follows the data: no smooth form (${smooth.map((c) => c.form).join(", ")}) could be scored on these points (notes below); ${inside}`;
  }
  const best = scored.reduce((a, b) => (b.cvRmseMbPerS! < a.cvRmseMbPerS! ? b : a));
  const tied = scored.filter((c) => selection.tieBelowMbPerS !== null && c.cvRmseMbPerS! <= selection.tieBelowMbPerS);
  if (tied.length > 0) {
    return `the empirical form is kept among forms within one standard error of the best (${tied.map((c) => c.form).join(", ")} too): it has the fewest parameters here; ${inside}`;
  }
  const ratio = best.cvRmseMbPerS! / empirical.cvRmseMbPerS!;
  return (
    `only the empirical form follows the data: the best smooth form, ${best.form}, has a CV RMSE of ${best.cvRmseMbPerS!.toPrecision(4)} MB/s ` +
    `(${ratio.toPrecision(3)}× the empirical form's ${empirical.cvRmseMbPerS!.toPrecision(4)} MB/s, beyond one standard error), so no smooth curve describes this device; ${inside}`
  );
}
