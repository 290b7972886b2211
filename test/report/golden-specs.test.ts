/**
 * Golden files of key specs: a change to a builder or to the theme shows up here as a diff
 * to review. After an intended change, or to add a golden file:
 * UPDATE_GOLDEN=1 npx vitest run test/report/golden-specs.test.ts (README, Development).
 * Without it a missing golden file fails: a test that wrote the file it then compares with
 * could not fail.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PAPER_MODEL } from "../../pipeline/fit/model";
import { modelFigures } from "../../pipeline/report/figures/model-figures";
import { modelSurfaceFigure } from "../../pipeline/report/figures/model-surface-spec";
import { peakCurvesFigure } from "../../pipeline/report/figures/peak-curves-spec";
import type { Figure } from "../../pipeline/report/figures/figure";

const GOLDEN = join(__dirname, "golden");

function expectGolden(figure: Figure): void {
  const path = join(GOLDEN, `${figure.id}.vl.json`);
  const text = `${JSON.stringify(figure.spec, null, 2)}\n`;
  if (process.env.UPDATE_GOLDEN === "1") writeFileSync(path, text);
  else if (!existsSync(path)) throw new Error(`golden file ${path} is missing; write it with UPDATE_GOLDEN=1 npx vitest run test/report/golden-specs.test.ts and review it`);
  expect(text).toBe(readFileSync(path, "utf8"));
}

describe("golden specs", () => {
  it("peak curves with measured points, from literal data", () => {
    expectGolden(
      peakCurvesFigure({
        id: "golden-peak-curves",
        title: "t",
        caption: "c",
        xTitle: "simultaneous checkpoints m (count)",
        seriesTitle: "application size v (MB)",
        series: ["15", "46"],
        curves: [
          { series: "15", m: 1, bwMbPerS: 8.6 },
          { series: "15", m: 2, bwMbPerS: 13.1 },
          { series: "46", m: 1, bwMbPerS: 8.6 },
        ],
        measured: [{ series: "15", m: 1, bwMbPerS: 9, sdBwMbPerS: 0.5, count: 20 }],
        peaks: [
          { series: "15", m: 2, bwMbPerS: 13.1, origin: "predicted" },
          { series: "15", m: 2, bwMbPerS: 12, origin: "measured" },
        ],
        peakOrigins: [
          { origin: "predicted", shape: "circle", outlined: false },
          { origin: "measured", shape: "diamond", outlined: true },
        ],
      }),
    );
  });

  it("surface with an infeasible region, from literal data", () => {
    expectGolden(
      modelSurfaceFigure({
        id: "golden-surface",
        title: "t",
        caption: "c",
        cells: [
          { m: 1, vGb: 0.5, bwMbPerS: 10 },
          { m: 2, vGb: 0.5, bwMbPerS: -1 },
        ],
        mStep: 1,
        vStepGb: 1,
        domain: { mMin: 1, mMax: 2, vGbMin: 0, vGbMax: 1 },
        points: [{ m: 1, vGb: 0.5, bwMbPerS: 10, origin: "measured", label: "v = 15 MB" }],
        pointOrigins: [{ origin: "measured", shape: "circle" }],
      }),
    );
  });

  it("the D1–D3 figure of the published model", () => {
    expectGolden(modelFigures(PAPER_MODEL, { idPrefix: "paper-model", modelLabel: "published model ([Y11] eq. 4)" })[2]!);
  });
});
