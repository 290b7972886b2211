/**
 * Expected waste by policy (docs/science.md §5): the analytic value of each policy's schedule
 * (filled circle) next to the Monte Carlo estimate with its confidence interval (hollow
 * square with a bar), one panel per objective (the papers' first-failure objective and
 * the complete one, docs/science.md §5.3). A policy's Monte Carlo interval should cover its analytic
 * value under the objective the simulation models.
 */
import type { TopLevelSpec } from "vega-lite";
import { categoryScale, paddedDomain, themeFrame } from "./chart-frame";
import { clippedText, clipToBounds, NON_NEGATIVE } from "./interval-bounds";
import type { Figure } from "./figure";
import { CHART_SIZES } from "./theme";

export interface WastePoint {
  policy: string;
  objective: string;
  analyticHours: number;
  monteCarloHours: number | null;
  lowHours: number | null;
  highHours: number | null;
  runs: number | null;
}

export interface WasteByPolicyInput {
  id: string;
  title: string;
  caption: string;
  policies: string[];
  objectives: string[];
  points: WastePoint[];
}

export function wasteByPolicyFigure(input: WasteByPolicyInput): Figure {
  const clipped = clipToBounds(input.points.map((p) => ({ ...p, low: p.lowHours, high: p.highHours })), NON_NEGATIVE);
  const points = clipped.points.map(({ low, high, ...p }) => ({ ...p, lowHours: low, highHours: high }));
  const xScale = { domain: paddedDomain(points.flatMap((p) => [p.analyticHours, p.monteCarloHours ?? 0, p.highHours ?? 0]), { nonNegative: true }), nice: true };
  const width = Math.floor((CHART_SIZES.page.width - 30) / Math.max(1, input.objectives.length));
  const y = { field: "policy", type: "nominal" as const, title: null, sort: input.policies };
  // The Monte Carlo estimate sits just below the analytic value of the same policy.
  const yOffset = { field: "kind", type: "nominal" as const, sort: ["analytic", "Monte Carlo (95 % CI)"], scale: { paddingOuter: 0.6 } };
  const color = { field: "policy", type: "nominal" as const, scale: categoryScale(input.policies), legend: null };
  const kinds = ["analytic", "Monte Carlo (95 % CI)"];
  const tooltip = [
    { field: "policy", title: "policy" },
    { field: "objective", title: "objective" },
    { field: "analyticHours", title: "analytic (h)", format: ".3f" },
    { field: "monteCarloHours", title: "Monte Carlo mean (h)", format: ".3f" },
    { field: "lowHours", title: "CI low (h)", format: ".3f" },
    { field: "highHours", title: "CI high (h)", format: ".3f" },
    { field: "runs", title: "runs" },
  ];
  const shape = {
    field: "kind",
    type: "nominal" as const,
    title: null,
    scale: { domain: kinds, range: ["circle", "square"] },
    legend: { orient: "bottom" as const, direction: "horizontal" as const },
  };
  const spec = {
    ...themeFrame(),
    data: { values: points },
    facet: { column: { field: "objective", type: "nominal", title: null, sort: input.objectives, header: { labelFontSize: 8 } } },
    spec: {
      width,
      height: 18 * input.policies.length,
      layer: [
        {
          transform: [{ filter: "datum.lowHours != null" }, { calculate: JSON.stringify(kinds[1]), as: "kind" }],
          mark: { type: "rule", strokeWidth: 1.2 },
          encoding: { y, yOffset, x: { field: "lowHours", type: "quantitative", title: "expected waste (h)", scale: xScale }, x2: { field: "highHours" }, color },
        },
        {
          transform: [{ filter: "datum.monteCarloHours != null" }, { calculate: JSON.stringify(kinds[1]), as: "kind" }],
          mark: { type: "point", filled: false, size: 40, strokeWidth: 1.2, opacity: 1 },
          encoding: { y, yOffset, x: { field: "monteCarloHours", type: "quantitative" }, color, shape, tooltip },
        },
        {
          transform: [{ calculate: JSON.stringify(kinds[0]), as: "kind" }],
          mark: { type: "point", filled: true, size: 30, opacity: 1 },
          encoding: { y, yOffset, x: { field: "analyticHours", type: "quantitative" }, color, shape, tooltip },
        },
      ],
    },
  } as unknown as TopLevelSpec;
  return { id: input.id, title: input.title, caption: input.caption + clippedText(clipped.clipped, points.length, NON_NEGATIVE), spec };
}
