/**
 * The one numeric grammar of trace files, as text (`parseDecimal`, used with csv-parse and
 * host logs) and as bytes (`parseDecimalBytes`, the canonical fast path). Both return the
 * same double for the same text, or NaN when the text is not a decimal number.
 *
 * Grammar: `[+-]? (digits [. digits?] | . digits) ([eE] [+-]? digits)?`, nothing around it
 * (no spaces, no hex, no `Infinity`). `Number()` alone would accept "", " 12 ", "0x1F" and
 * "Infinity", which in a trace are mistakes, not numbers.
 *
 * The byte version takes Clinger's fast path: with at most 15 significant digits the
 * mantissa is an exact integer below 2^53, and 10^k is exact for k ≤ 22, so one IEEE
 * multiplication or division gives the correctly rounded value, which is what `Number()`
 * returns. Anything longer (or with an exponent) goes through `Number()` on the text, so
 * the two versions never disagree (the tests check it on random strings).
 */

const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** Exact powers of ten, 10^0 … 10^22. */
export const POWERS_OF_TEN: readonly number[] = Array.from({ length: 23 }, (_, k) => Number(`1e${k}`));

/** The number a decimal text denotes, or NaN if the text is not a decimal number. */
export function parseDecimal(text: string): number {
  return DECIMAL.test(text) ? Number(text) : NaN;
}

const PLUS = 43;
const MINUS = 45;
const DOT = 46;
const ZERO = 48;
const NINE = 57;
const LOWER_E = 101;
const UPPER_E = 69;

/** `parseDecimal` of the bytes `[start, end)` of `bytes`, without making a string. */
export function parseDecimalBytes(bytes: Uint8Array, start: number, end: number): number {
  let i = start;
  let negative = false;
  if (i < end) {
    const first = bytes[i]!;
    if (first === MINUS) {
      negative = true;
      i++;
    } else if (first === PLUS) {
      i++;
    }
  }
  let mantissa = 0;
  let significantDigits = 0;
  let exponent10 = 0;
  let digitsSeen = 0;
  let exact = true;
  // The integer digits, then (after one dot) the fraction's: each fraction digit kept lowers the exponent.
  let afterDot = false;
  for (; i < end; i++) {
    const byte = bytes[i]!;
    if (byte === DOT && !afterDot) {
      afterDot = true;
      continue;
    }
    const digit = byte - ZERO;
    if (digit < 0 || digit > 9) break;
    digitsSeen++;
    if (significantDigits < 15) {
      mantissa = mantissa * 10 + digit;
      if (mantissa !== 0) significantDigits++;
      if (afterDot) exponent10--;
    } else {
      exact = false;
    }
  }
  if (digitsSeen === 0) return NaN;
  if (i < end) {
    const marker = bytes[i]!;
    if (marker !== LOWER_E && marker !== UPPER_E) return NaN;
    i++;
    if (i < end && (bytes[i] === PLUS || bytes[i] === MINUS)) i++;
    const exponentStart = i;
    for (; i < end; i++) {
      const code = bytes[i]!;
      if (code < ZERO || code > NINE) return NaN;
    }
    if (i === exponentStart) return NaN;
    exact = false;
  }
  if (!exact || exponent10 < -22) return Number(Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString("latin1"));
  const magnitude = exponent10 === 0 ? mantissa : mantissa / POWERS_OF_TEN[-exponent10]!;
  return negative ? -magnitude : magnitude;
}
