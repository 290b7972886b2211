/**
 * Row-level validation of one process checkpoint's numbers, shared by every reader (the
 * canonical fast path, csv-parse, host logs) so that they reject the same rows for the
 * same reasons.
 *
 * Checks, in this order (the first failing one is reported):
 * each number is a finite decimal (m, size_mb, ckpt_mb, start_s, end_s), m is an integer
 * ≥ 1, size_mb > 0, ckpt_mb > 0, end_s ≥ start_s, end_s ≠ start_s, and the bandwidth
 * ckpt_mb / (end_s − start_s) is > 0 and finite even m times over (the run's aggregated
 * bandwidth, a sum of m of them, is then finite too; 1e10 MB in 1e-300 s is not a bandwidth).
 * Decisions where the issue is silent: ckpt_mb = 0 is rejected like a non-positive size
 * (it would give a zero bandwidth, not a measurement); start_s may be any finite number
 * (relative or Unix time, even negative).
 *
 * `processValuesProblem` is the allocation-free test for hot loops; it returns 0 or a
 * problem number that `explainProcessValuesProblem` turns into a code and a message.
 * `processValuesProblemIn` reads the numbers from a Float64Array (slots 1..5 in the order
 * of `NUMERIC_COLUMNS`), so that the byte-level reader passes no number as an argument:
 * V8 boxes a non-integral number passed to a call it does not inline, one allocation each.
 */
import { rejectMessage, type RejectCode } from "./reject-reasons";

/** The numeric columns, in the order they are checked. */
export const NUMERIC_COLUMNS = ["m", "size_mb", "ckpt_mb", "start_s", "end_s"] as const;
export type NumericColumn = (typeof NUMERIC_COLUMNS)[number];

// Problem numbers: 1..5 = NUMERIC_COLUMNS[n − 1] is not a finite number.
const INVALID_M = 6;
const NON_POSITIVE_SIZE = 7;
const NON_POSITIVE_CKPT = 8;
const END_BEFORE_START = 9;
const ZERO_DURATION = 10;
const BANDWIDTH_OUT_OF_RANGE = 11;

/** 0 when the values make a valid process checkpoint, else a problem number. */
export function processValuesProblem(m: number, sizeMb: number, ckptMb: number, startS: number, endS: number): number {
  scratch[1] = m;
  scratch[2] = sizeMb;
  scratch[3] = ckptMb;
  scratch[4] = startS;
  scratch[5] = endS;
  return processValuesProblemIn(scratch);
}
const scratch = new Float64Array(6);

/** `processValuesProblem` of `values[1..5]` = m, size_mb, ckpt_mb, start_s, end_s. */
export function processValuesProblemIn(values: Float64Array): number {
  const m = values[1]!;
  const sizeMb = values[2]!;
  const ckptMb = values[3]!;
  const startS = values[4]!;
  const endS = values[5]!;
  // `x - x === 0` is false exactly for NaN and ±Infinity.
  if (m - m !== 0) return 1;
  if (sizeMb - sizeMb !== 0) return 2;
  if (ckptMb - ckptMb !== 0) return 3;
  if (startS - startS !== 0) return 4;
  if (endS - endS !== 0) return 5;
  if (m < 1 || Math.floor(m) !== m) return INVALID_M;
  if (sizeMb <= 0) return NON_POSITIVE_SIZE;
  if (ckptMb <= 0) return NON_POSITIVE_CKPT;
  if (endS < startS) return END_BEFORE_START;
  if (endS === startS) return ZERO_DURATION;
  const bwMbPerS = ckptMb / (endS - startS);
  if (!(bwMbPerS > 0 && bwMbPerS * m < Infinity)) return BANDWIDTH_OUT_OF_RANGE;
  return 0;
}

export interface RowProblem {
  code: RejectCode;
  reason: string;
}

/**
 * The code and message of a problem found by `processValuesProblem`. `textOf(column)`
 * gives the field's text as read, used in "found …" messages; `labels` names the fields
 * as the input calls them when that is not the canonical column (host logs).
 */
export function explainProcessValuesProblem(
  problem: number,
  values: { m: number; sizeMb: number; ckptMb: number; startS: number; endS: number },
  textOf: (column: NumericColumn) => string,
  labels: Partial<Record<NumericColumn, string>> = {},
): RowProblem {
  if (problem >= 1 && problem <= 5) {
    const column = NUMERIC_COLUMNS[problem - 1]!;
    return { code: "non-numeric", reason: rejectMessage.nonNumeric(labels[column] ?? column, textOf(column)) };
  }
  switch (problem) {
    case INVALID_M:
      return { code: "invalid-m", reason: rejectMessage.invalidM(values.m) };
    case NON_POSITIVE_SIZE:
      return { code: "non-positive-size", reason: rejectMessage.nonPositiveSize(values.sizeMb) };
    case NON_POSITIVE_CKPT:
      return { code: "non-positive-ckpt", reason: rejectMessage.nonPositiveCkpt(values.ckptMb) };
    case END_BEFORE_START:
      return { code: "end-before-start", reason: rejectMessage.endBeforeStart(values.startS, values.endS) };
    case ZERO_DURATION:
      return { code: "zero-duration", reason: rejectMessage.zeroDuration(values.startS) };
    case BANDWIDTH_OUT_OF_RANGE:
      return { code: "bandwidth-out-of-range", reason: rejectMessage.bandwidthOutOfRange(values.m, values.ckptMb, values.startS, values.endS) };
    default:
      throw new RangeError(`unknown process-values problem ${problem}`);
  }
}
