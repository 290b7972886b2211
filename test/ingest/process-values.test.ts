/**
 * The row checks of pipeline/ingest/process-values.ts one by one, at their boundaries, in
 * their documented order (the first failing check is the one reported), and the codes and
 * messages they are explained by.
 */
import { describe, expect, it } from "vitest";
import { explainProcessValuesProblem, processValuesProblem, processValuesProblemIn } from "../../pipeline/ingest/process-values";

/** m, size_mb, ckpt_mb, start_s, end_s of a valid row: 100 MB in 10 s. */
const OK = [2, 50, 100, 0, 10] as const;
const code = (m: number, sizeMb: number, ckptMb: number, startS: number, endS: number) => {
  const problem = processValuesProblem(m, sizeMb, ckptMb, startS, endS);
  if (problem === 0) return null;
  const texts = { m: String(m), size_mb: String(sizeMb), ckpt_mb: String(ckptMb), start_s: String(startS), end_s: String(endS) };
  return explainProcessValuesProblem(problem, { m, sizeMb, ckptMb, startS, endS }, (c) => texts[c]).code;
};

describe("the row checks", () => {
  it("accept the boundary values: m = 1, any finite start (even negative), the largest m · bandwidth below overflow", () => {
    expect(code(...OK)).toBeNull();
    expect(code(1, 50, 100, 0, 10)).toBeNull();
    expect(code(2, 50, 100, -1e9, -1e9 + 10)).toBeNull();
    // 1e308 MB in 1 s: 1e308 MB/s, finite for m = 1 (its double is 1e308 < Infinity).
    expect(code(1, 1, 1e308, 0, 1)).toBeNull();
    expect(code(2, 1e-300, 1e-300, 0, 1e-10)).toBeNull();
  });

  it("reject each value just past its boundary, with its code", () => {
    expect(code(0.999, 50, 100, 0, 10)).toBe("invalid-m");
    expect(code(0, 50, 100, 0, 10)).toBe("invalid-m");
    expect(code(2.5, 50, 100, 0, 10)).toBe("invalid-m");
    expect(code(2, 0, 100, 0, 10)).toBe("non-positive-size");
    expect(code(2, -1, 100, 0, 10)).toBe("non-positive-size");
    expect(code(2, 50, 0, 0, 10)).toBe("non-positive-ckpt");
    expect(code(2, 50, 100, 10, 9.999)).toBe("end-before-start");
    expect(code(2, 50, 100, 10, 10)).toBe("zero-duration");
    // 1e308 MB/s twice overflows; 1e-300 MB over 1e300 s underflows to 0 MB/s.
    expect(code(2, 1, 1e308, 0, 1)).toBe("bandwidth-out-of-range");
    expect(code(1, 1, 1e-300, 0, 1e300)).toBe("bandwidth-out-of-range");
  });

  it("report the first failing check: the columns' numbers in order, then m, size, ckpt, the times", () => {
    // Problem numbers: 1..5 the column not a number, 6 m, 7 size, 8 ckpt, 9 end before start, 10 zero duration, 11 bandwidth.
    expect(processValuesProblem(NaN, NaN, NaN, NaN, NaN)).toBe(1);
    expect(processValuesProblem(0, Infinity, NaN, NaN, NaN)).toBe(2);
    expect(processValuesProblem(0, 0, -Infinity, NaN, NaN)).toBe(3);
    expect(processValuesProblem(0, 0, 0, NaN, NaN)).toBe(4);
    expect(processValuesProblem(0, 0, 0, 5, Infinity)).toBe(5);
    expect(processValuesProblem(0, 0, 0, 5, 4)).toBe(6);
    expect(processValuesProblem(1, 0, 0, 5, 4)).toBe(7);
    expect(processValuesProblem(1, 1, 0, 5, 4)).toBe(8);
    expect(processValuesProblem(1, 1, 1, 5, 4)).toBe(9);
    expect(processValuesProblem(1, 1, 1, 5, 5)).toBe(10);
    expect(processValuesProblem(1, 1, 1e-300, 0, 1e300)).toBe(11);
    expect(processValuesProblemIn(Float64Array.from([99, 1, 1, 1, 5, 4]))).toBe(9); // slot 0 is not read
  });

  it("explain a problem with the column's text, under the input's own label when given", () => {
    const values = { m: 1, sizeMb: 1, ckptMb: NaN, startS: 0, endS: 1 };
    const texts = (c: string) => `<${c}>`;
    expect(explainProcessValuesProblem(3, values, texts)).toEqual({ code: "non-numeric", reason: 'ckpt_mb must be a finite decimal number, found "<ckpt_mb>"' });
    expect(explainProcessValuesProblem(3, values, texts, { ckpt_mb: "ckpt_bytes" })).toEqual({ code: "non-numeric", reason: 'ckpt_bytes must be a finite decimal number, found "<ckpt_mb>"' });
    expect(explainProcessValuesProblem(1, values, texts).reason).toMatch(/^m must/);
    expect(explainProcessValuesProblem(5, values, texts).reason).toMatch(/^end_s must/);
    const all = { m: 1.5, sizeMb: -2, ckptMb: -3, startS: 7, endS: 6 };
    expect([6, 7, 8, 9, 10].map((p) => explainProcessValuesProblem(p, all, texts))).toEqual([
      { code: "invalid-m", reason: "m must be a whole number ≥ 1 (processes checkpointed together), found 1.5" },
      { code: "non-positive-size", reason: "size_mb must be > 0 (the application's memory in MB), found -2" },
      { code: "non-positive-ckpt", reason: "ckpt_mb must be > 0 (MB written by the checkpoint), found -3" },
      { code: "end-before-start", reason: "end_s (6) is before start_s (7); are the two columns swapped?" },
      { code: "zero-duration", reason: "end_s equals start_s (7): a checkpoint takes a positive time, the bandwidth would be infinite" },
    ]);
    expect(explainProcessValuesProblem(11, { m: 3, sizeMb: 1, ckptMb: 1e308, startS: 0, endS: 1 }, texts).code).toBe("bandwidth-out-of-range");
    expect(() => explainProcessValuesProblem(0, values, texts)).toThrow("unknown process-values problem 0");
    expect(() => explainProcessValuesProblem(12, values, texts)).toThrow("unknown process-values problem 12");
  });
});
