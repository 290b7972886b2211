import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseDecimal, parseDecimalBytes } from "../../pipeline/ingest/decimal";

const bytesOf = (text: string) => {
  const bytes = Buffer.from(text, "utf8");
  return parseDecimalBytes(bytes, 0, bytes.length);
};

describe("the numeric grammar of traces", () => {
  it.each([
    ["12", 12],
    ["-3.5", -3.5],
    ["+7", 7],
    ["1.", 1],
    [".25", 0.25],
    ["007.50", 7.5],
    ["1e3", 1000],
    ["2.5E-3", 0.0025],
    ["1302012345.120", 1302012345.12],
  ])("reads %j as %d", (text, value) => {
    expect(parseDecimal(text)).toBe(value);
    expect(bytesOf(text)).toBe(value);
  });

  it("keeps the sign of zero, as Number does", () => {
    expect(Object.is(parseDecimal("-0"), -0)).toBe(true);
    expect(Object.is(bytesOf("-0.0"), -0)).toBe(true);
  });

  it.each(["", " 12", "12 ", "0x10", "Infinity", "NaN", "1e", "1e+", ".", "-", "+", "1.2.3", "--1", "1,5", "١٢"])(
    "refuses %j (NaN)",
    (text) => {
      expect(parseDecimal(text)).toBeNaN();
      expect(bytesOf(text)).toBeNaN();
    },
  );

  it("the byte version agrees with the text version on any short string of number-ish characters", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(..."0123456789+-.eE x"), maxLength: 24 }), (text) => {
        expect(Object.is(bytesOf(text), parseDecimal(text))).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it("the byte version gives Number()'s correctly rounded double for long decimals (beyond the 15-digit fast path)", () => {
    const decimal = fc
      .tuple(fc.string({ unit: fc.constantFrom(..."0123456789"), minLength: 1, maxLength: 25 }), fc.string({ unit: fc.constantFrom(..."0123456789"), maxLength: 25 }))
      .map(([whole, fraction]) => (fraction === "" ? whole : `${whole}.${fraction}`));
    fc.assert(
      fc.property(decimal, (text) => {
        expect(bytesOf(text)).toBe(Number(text));
      }),
      { numRuns: 2000 },
    );
  });

  it("reads back every double as JavaScript prints it (String(-0) is \"0\", hence ===)", () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (value) => {
        expect(bytesOf(String(value)) === value).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});
