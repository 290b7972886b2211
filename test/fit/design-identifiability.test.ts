import { describe, expect, it } from "vitest";
import { fitLeastSquares, type FitSample } from "../../pipeline/fit/least-squares";
import { bandwidthEvaluator, PAPER_MODEL, type ModelForm } from "../../pipeline/fit/model";
import { InputError } from "../../pipeline/shared/errors";

const bw = bandwidthEvaluator(PAPER_MODEL);

function series(sizesMb: number[], ms: number[]): FitSample[] {
  return sizesMb.flatMap((size) => ms.map((m) => ({ m, vGb: (m * size) / 1000, bwMbPerS: bw(m, (m * size) / 1000) + 0.01 * Math.sin(m * size) })));
}

function refusal(samples: FitSample[], form: ModelForm): string {
  try {
    fitLeastSquares(samples, form);
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return (error as Error).message;
  }
  return expect.fail("expected the fit to be refused");
}

const oneToTen = Array.from({ length: 10 }, (_, i) => i + 1);

describe("designs that cannot identify the form are refused, saying what is missing", () => {
  it("no points", () => {
    expect(refusal([], "paper")).toMatch(/there are no fit points.*size series/);
  });

  it("all runs at one m", () => {
    const message = refusal(series([15, 46, 76, 114, 271], [4]), "paper");
    expect(message).toMatch(/only 1 distinct number of processes, m ∈ \{4\}.*need at least 3/);
    expect(message).toMatch(/Add runs at other m/);
  });

  it("two distinct m", () => {
    expect(refusal(series([15, 46, 76, 114, 271], [1, 8]), "full")).toMatch(/only 2 distinct numbers of processes, m ∈ \{1, 8\}/);
  });

  it("a single application size (V = m·v)", () => {
    const message = refusal(series([271], oneToTen), "paper");
    expect(message).toMatch(/application size V\/m in \{271 MB\}/);
    expect(message).toMatch(/at least 2 sizes/);
    expect(message).toMatch(/Add size series of 1 more application size/);
  });

  it("two sizes for the full form", () => {
    expect(refusal(series([46, 684], oneToTen), "full")).toMatch(/at least 3 sizes.*Add size series of 1 more application size\./);
  });

  it("one aggregated size V for every point", () => {
    const samples = [1, 2, 4, 5, 8].map((m) => ({ m, vGb: 2, bwMbPerS: bw(m, 2) }));
    expect(refusal(samples, "paper")).toMatch(/only 1 distinct aggregated size V ∈ \{2 GB\}/);
  });

  it("too few distinct points for the coefficients and the error", () => {
    // 9 distinct (m, V) for the full form's 9 coefficients; replicates do not help.
    const nine = series([46, 271, 684], [1, 2, 3]);
    const message = refusal([...nine, ...nine], "full");
    expect(message).toMatch(/9 distinct \(m, V\) points for 9 coefficients/);
    expect(message).toMatch(/Add at least 1 point at new \(m, V\) combinations/);
  });

  it("collinear terms the structural checks cannot see", () => {
    // Every point has V² = 0.01·m² + 0.5, so the V² column is a combination of m² and 1:
    // several m, several sizes, several V, and still rank-deficient.
    const samples = oneToTen.map((m) => {
      const vGb = Math.sqrt(0.01 * m * m + 0.5);
      return { m, vGb, bwMbPerS: bw(m, vGb) };
    });
    const message = refusal(samples, "paper");
    expect(message).toMatch(/nearly\) linearly dependent: the column-scaled design has condition number \S+ \(limit 1e\+6\)/);
    // The null direction names V², m² and 1 (not d·m).
    expect(message).toMatch(/V²/);
    expect(message).toMatch(/m²(?!·)/);
    expect(message).toMatch(/·1\b/);
    expect(message).not.toMatch(/·m(?![²·])/);
  });

  it("never prints coefficients from such a fit (the refusal is an InputError, exit 1)", () => {
    expect(() => fitLeastSquares(series([271], oneToTen), "full")).toThrow(InputError);
  });

  it("accepts the smallest identifiable designs", () => {
    // Paper form: 2 sizes, 3 m (6 points ≥ 5 + 1).
    expect(() => fitLeastSquares(series([46, 684], [1, 2, 3]), "paper")).not.toThrow();
    // Full form: 3 sizes × 4 m.
    expect(() => fitLeastSquares(series([46, 271, 684], [1, 2, 3, 4]), "full")).not.toThrow();
  });
});
