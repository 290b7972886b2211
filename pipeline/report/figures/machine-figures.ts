/**
 * A cluster against the Azur model (recalibration, docs/science.md §3): the bandwidth
 * measured and the model fitted on it, next to the published model of the Grid5000 Azur
 * cluster — both sets of curves, where each was fitted and how well, and both sets of
 * coefficients when the forms are the same. `machineFigures`: a cluster this project
 * measured with `ckpt harness` (ids "machine-…", "nfs-…"); `azurComparison`: the cluster of
 * a report about the user's own traces, whose model the report's other sections draw.
 */
import type { BandwidthModel } from "../../fit/model";
import type { ObservationsArtifact } from "../../ingest/observations-artifact";
import type { Figure } from "./figure";
import type { FitReportArtifact } from "../../fit/fit-report-artifact";
import { modelFigures } from "./model-figures";
import { sideBySideFigure } from "./side-by-side-spec";
import { modelCard } from "../tables/model-card";
import type { Table } from "../tables/table";

export function machineFigures(
  measured: Pick<MeasuredClusterInput, "key" | "who" | "observations" | "fit">,
  paperModel: BandwidthModel,
  paperFigures: Figure[],
): { figures: Figure[]; tables: Table[] } {
  const { key, who, observations, fit } = measured;
  const files = observations.inputs.map((i) => i.path).join(", ");
  const label = `${who}'s trace ${files}`;
  const r = fit.residuals;
  const mine = modelFigures(fit.model, {
    idPrefix: `${key}-model`,
    modelLabel: `model fitted on ${who}`,
    observations: observations.observations,
    observationsLabel: label,
    datasets: false,
    // The model answers on its fitted domain only: drawn past it, a quadratic would rise or
    // fall where nothing was measured.
    mMax: fit.model.domain.mMax,
    vMaxGb: Math.max(1, Math.ceil(Math.max(...observations.observations.runs.map((run) => run.vGb)))),
    vStepGb: 0.1,
    surfacePoints: {
      label: "fit points",
      selection: String(fit.model.provenance.fitPoints ?? ""),
      points: r.m.map((m, i) => ({ m, vGb: r.vGb[i]!, bwMbPerS: r.observedMbPerS[i]!, label: `v = ${r.sizeMb[i]} MB` })),
    },
  });
  const both = sideBySideCurves(key, `${capitalised(who)} next to the Azur cluster`, who, `the model fitted on ${label} (see its README)`, paperFigures, mine);
  // Its model card, as the fitted model of the report's own traces has: name, formula, domain, notes, metrics, provenance.
  const card = modelCard(fit.model, `${key}-model`, who).properties;
  return { figures: [...both, ...mine], tables: [...comparisonTables(key, who, label, fit, paperModel), card] };
}


/** A trace this project measured, with its fit and the words of its section. */
export interface MeasuredClusterInput {
  /** Names the section and its figures and tables. */
  key: string;
  /** "this machine", "the NFS cluster". */
  who: string;
  title: string;
  intro: string;
  observations: ObservationsArtifact;
  fit: FitReportArtifact;
}

/**
 * The user's cluster against the published Azur model, once, as a labelled comparison: the
 * two models' size curves side by side, and where each was fitted and how well (the
 * coefficients too when the fitted form is the papers').
 */
export function azurComparison(
  cluster: string,
  fit: FitReportArtifact,
  observationsLabel: string,
  paperModel: BandwidthModel,
  paperFigures: Figure[],
  clusterFigures: Figure[],
): { figures: Figure[]; tables: Table[] } {
  return {
    figures: sideBySideCurves("cluster", `${cluster} against the published Azur model`, cluster, `the ${fit.model.form} form fitted on ${observationsLabel}`, paperFigures, clusterFigures),
    tables: comparisonTables("cluster", cluster, observationsLabel, fit, paperModel),
  };
}

function sideBySideCurves(key: string, title: string, who: string, what: string, paperFigures: Figure[], mine: Figure[]): Figure[] {
  const azurCurves = paperFigures.find((f) => f.id.endsWith("-size-curves"));
  const myCurves = mine.find((f) => f.id.endsWith("-size-curves"));
  if (!azurCurves || !myCurves) return [];
  return [
    sideBySideFigure(
      `${key}-vs-azur-curves`,
      title,
      `Left: the published model of the Grid5000 Azur cluster (30 nodes checkpointing over Gigabit Ethernet to one NFS server, ` +
        `[Y11] eq. 4) with the peaks of [Y-thesis] Table 4.1. Right: ${what}, ` +
        `with the measured means ±1 sd. Each dotted where it extrapolates past the domain it was fitted on. Mind the scales.`,
      azurCurves,
      myCurves,
      ["Azur: published model", `${who}: fitted model`],
    ),
  ];
}

function comparisonTables(key: string, who: string, label: string, fit: FitReportArtifact, paperModel: BandwidthModel): Table[] {
  const coefficients: Table = {
    id: `${key}-vs-azur-coefficients`,
    title: `Coefficients: ${who} and the Azur cluster`,
    caption:
      `bw(m, V) in the papers' form, V in GB, bw in MB/s: the published Azur coefficients ([Y11] eq. 4) and those fitted on ${label} ` +
      `with their 95 % intervals. The terms are the same; the physics behind them is not, so they are not comparable term by term.`,
    columns: [
      { key: "name", label: "coefficient" },
      { key: "term", label: "term" },
      { key: "azur", label: "Azur (published)", decimals: 6 },
      { key: "machine", label: who, decimals: 4 },
      { key: "low", label: "95 % CI low", decimals: 4 },
      { key: "high", label: "95 % CI high", decimals: 4 },
    ],
    rows: fit.coefficients.map((c) => ({
      name: c.name,
      term: c.term,
      azur: paperModel.coefficients[c.name] ?? null,
      machine: c.estimate,
      low: c.ci95[0],
      high: c.ci95[1],
    })),
  };
  const d = fit.model.domain;
  const domains: Table = {
    id: `${key}-vs-azur-domains`,
    title: "Where each model was fitted, and how well",
    caption: "The fitted domain and the fit's figures of each model (the published ones from [Y11] / [Y-thesis]).",
    columns: [
      { key: "what", label: "what" },
      { key: "azur", label: "Azur (published)" },
      { key: "machine", label: who },
    ],
    rows: [
      { what: "m", azur: `${paperModel.domain.mMin} – ${paperModel.domain.mMax}`, machine: `${d.mMin} – ${d.mMax}` },
      { what: "V (GB)", azur: `${paperModel.domain.vGbMin} – ${paperModel.domain.vGbMax}`, machine: `${d.vGbMin} – ${d.vGbMax}` },
      { what: "E_global (%)", azur: "4.02 ([Y-thesis])", machine: fit.metrics.eGlobalPercent.toFixed(2) },
      { what: "R²", azur: "—", machine: fit.metrics.rSquared.toFixed(3) },
      { what: "form", azur: `${paperModel.form} ([Y11] eq. 4)`, machine: fit.model.form },
      { what: "runs fitted", azur: "> 100 per point (unpublished)", machine: String(fit.metrics.runCount) },
    ],
  };
  // Coefficients compare only between the same terms.
  return fit.model.form === paperModel.form ? [coefficients, domains] : [domains];
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
