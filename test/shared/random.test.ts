import { describe, expect, it } from "vitest";
import { createRandom, createRandomFromWords } from "../../pipeline/shared/random";

/** The first five 32-bit outputs (next() × 2^32), from an independent Python implementation of
 * splitmix32 seeding sfc32 (12 discarded steps), unsigned arithmetic masked to 32 bits. */
const PYTHON_SFC32 = {
  seed1: [1828152527, 3394835397, 2967886022, 2251045104, 4148684523],
  seed2026: [1588752412, 429169908, 3489657510, 696531325, 150616937],
  // createRandomFromWords([0xdeadbeef, 0x12345678, 0xffffffff, 0x80000000]): words above 2^31 on purpose
  words: [1308018179, 1470959455, 2008580913, 3201300947, 2540063795],
};

const first5 = (next: () => number) => Array.from({ length: 5 }, () => next() * 4294967296);

describe("seeded generator", () => {
  it("draws the sfc32 stream of an independent implementation, from a seed and from four words", () => {
    const one = createRandom(1);
    expect(first5(() => one.next())).toEqual(PYTHON_SFC32.seed1);
    const other = createRandom(2026);
    expect(first5(() => other.next())).toEqual(PYTHON_SFC32.seed2026);
    const words = createRandomFromWords([0xdeadbeef, 0x12345678, 0xffffffff, 0x80000000]);
    expect(first5(() => words.next())).toEqual(PYTHON_SFC32.words);
  });

  it("stays in [0, 1) and never repeats a short cycle", () => {
    const random = createRandom(7);
    const seen = new Set<number>();
    for (let i = 0; i < 100_000; i++) {
      const x = random.next();
      expect(x >= 0 && x < 1).toBe(true);
      seen.add(x);
    }
    expect(seen.size).toBeGreaterThan(99_990);
  });
});
