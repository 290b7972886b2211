/**
 * The ingest stage's part of the report: the measured bandwidth curve of every size series
 * (mean ± sd per m) with its peak, next to the peaks published in [Y-thesis] Table 4.1,
 * and the ingest counts (every row read is accepted or rejected with a reason).
 */
import { TABLE_4_1_PEAKS } from "../../ingest/published-azur-data";
import type { ObservationsArtifact } from "../../ingest/observations-artifact";
import type { Figure } from "./figure";
import { measuredSeries } from "./measured-series";
import { peakCurvesFigure } from "./peak-curves-spec";
import { TABLE_4_1_SOURCE } from "../../reproduce/published-values";
import type { Table } from "../tables/table";

export function measuredFigures(artifact: ObservationsArtifact, observationsLabel: string): { figures: Figure[]; tables: Table[] } {
  const labelled = measuredSeries(artifact.observations);
  const measuredPeak = "measured peak (traces)";
  const published = `published peak (${TABLE_4_1_SOURCE})`;
  const labels = new Map(labelled.map((l) => [l.series.sizeMb, l.label]));
  const figure = peakCurvesFigure({
    id: "measured-size-curves",
    title: "Measured bandwidth per application size",
    caption:
      `Aggregated checkpoint bandwidth of ${observationsLabel} per number of simultaneous checkpoints m and application size v: ` +
      `mean over the runs ±1 sd, with each series' peak (ī, bw_ī) and, where the size is one of ${TABLE_4_1_SOURCE}'s, the published peak.`,
    xTitle: "simultaneous checkpoints m (count)",
    seriesTitle: "application size v (MB)",
    series: labelled.map((l) => l.label),
    curves: labelled.flatMap(({ label, series }) => series.points.map((p) => ({ series: label, m: p.m, bwMbPerS: round(p.meanBwMbPerS) }))),
    measured: labelled.flatMap(({ label, series }) =>
      series.points.map((p) => ({ series: label, m: p.m, bwMbPerS: round(p.meanBwMbPerS), sdBwMbPerS: round(p.sdBwMbPerS), count: p.count })),
    ),
    peaks: [
      ...labelled.map(({ label, series }) => ({ series: label, m: series.peak.m, bwMbPerS: round(series.peak.bwMbPerS), origin: measuredPeak })),
      ...TABLE_4_1_PEAKS.filter((p) => labels.has(p.sizeMb)).map((p) => ({ series: labels.get(p.sizeMb)!, m: p.peakM, bwMbPerS: p.peakBwMbPerS, origin: published })),
    ],
    peakOrigins: [
      { origin: measuredPeak, shape: "circle", outlined: false },
      { origin: published, shape: "diamond", outlined: true },
    ],
  });
  const counts: Table = {
    id: "ingest-counts",
    title: "Rows read, accepted and rejected",
    caption: `Every row of the traces is accepted or listed with its file, line and reason in rejects.csv (read = accepted + rejected).`,
    columns: [
      { key: "what", label: "what" },
      { key: "count", label: "rows" },
    ],
    rows: [
      { what: "read", count: artifact.counts.read },
      { what: "accepted", count: artifact.counts.accepted },
      { what: "rejected", count: artifact.counts.rejected },
      ...Object.entries(artifact.rejectedByCode)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([code, count]) => ({ what: `  rejected: ${code}`, count: count ?? 0 })),
      { what: "runs", count: artifact.observations.runs.length },
      { what: "size series", count: artifact.observations.series.length },
      { what: "mixed-size (validation) runs", count: artifact.observations.validationRuns.length },
    ],
  };
  return { figures: [figure], tables: [counts] };
}

function round(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}
