/** The human-readable peak curve (what `ckpt peaks` prints without `--json`). */
import type { BandwidthModel } from "./model";
import type { PeakCurve } from "./peak-curve";
import { compact, tableWithNumbers } from "./format-cells";

export function formatPeakCurve(model: BandwidthModel, result: PeakCurve): string {
  const d = model.domain;
  const rows = result.curve.map((point) => {
    const notes = [point.inDomain ? "" : "outside the fitted domain", point.bw > 0 ? "" : "≤ 0: no usable bandwidth"].filter(Boolean);
    return [
      String(point.m),
      compact(point.sizeMb, 12),
      compact(point.sizeMb / 1000, 6),
      point.bw.toFixed(2),
      point.m === result.peak.m ? "peak" : "",
      notes.join("; "),
    ];
  });
  const outside = result.curve.filter((point) => !point.inDomain).length;
  return [
    `model: ${model.name} (${model.form} form; fitted domain m ∈ [${d.mMin}, ${d.mMax}], V ∈ [${compact(d.vGbMin)}, ${compact(d.vGbMax)}] GB)`,
    "",
    tableWithNumbers(["i", "Σ size MB", "V GB", "bw MB/s", "", "note"], rows, [0, 1, 2, 3]),
    "",
    `peak: ī = ${result.peak.m}, bw = ${result.peak.bw.toFixed(2)} MB/s`,
    ...(outside > 0 ? [`${outside} of ${result.curve.length} points lie outside the fitted domain: extrapolations, to be trusted less.`] : []),
  ].join("\n");
}
