/**
 * Seeded randomness for everything the project draws (synthetic traces, campaigns, Monte
 * Carlo): the same seed gives the same numbers on every machine, so reruns are
 * byte-identical. Generator: sfc32 seeded through splitmix32 (small state, passes
 * PractRand to 2^40 bytes; far more than any campaign here needs).
 */
export interface Random {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform in [low, high). */
  uniform(low: number, high: number): number;
  /** Uniform integer in [low, high] inclusive. */
  integer(low: number, high: number): number;
  /** Standard normal (Box–Muller, one value cached). */
  normal(): number;
}

function splitmix32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
}

export function createRandom(seed: number): Random {
  if (!Number.isInteger(seed)) throw new RangeError(`seed must be an integer, got ${seed}`);
  const init = splitmix32(seed);
  return sfc32(init(), init(), init(), init());
}

/**
 * A generator whose 128-bit state comes from four 32-bit words (e.g. four hashes of a
 * stream's key): unlike a 32-bit seed, distinct keys collide only if all four words do.
 */
export function createRandomFromWords(words: readonly [number, number, number, number]): Random {
  return sfc32(words[0] >>> 0, words[1] >>> 0, words[2] >>> 0, words[3] >>> 0);
}

function sfc32(a: number, b: number, c: number, d: number): Random {
  const nextUint32 = (): number => {
    const t = (((a + b) >>> 0) + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = ((c << 21) | (c >>> 11)) >>> 0;
    c = (c + t) >>> 0;
    return t;
  };
  for (let i = 0; i < 12; i++) nextUint32();
  let cachedNormal: number | null = null;
  const next = () => nextUint32() / 4294967296;
  return {
    next,
    uniform: (low, high) => low + (high - low) * next(),
    integer: (low, high) => low + Math.floor(next() * (high - low + 1)),
    normal() {
      if (cachedNormal !== null) {
        const value = cachedNormal;
        cachedNormal = null;
        return value;
      }
      let u = next();
      while (u === 0) u = next();
      const v = next();
      const radius = Math.sqrt(-2 * Math.log(u));
      cachedNormal = radius * Math.sin(2 * Math.PI * v);
      return radius * Math.cos(2 * Math.PI * v);
    },
  };
}
