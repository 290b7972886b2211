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
  return sfc32(words[0], words[1], words[2], words[3]);
}

function sfc32(a: number, b: number, c: number, d: number): Random {
  // The state lives in a typed array, not in closure variables: a 32-bit word above 2^30
  // does not fit V8's small integers, so each step would box up to four numbers on the
  // heap (2.5× slower, and the garbage collector's work in every Monte Carlo). The
  // arithmetic is the same modulo 2^32, so the numbers drawn are the same bit for bit.
  const state = Int32Array.of(a, b, c, d);
  const nextUint32 = (): number => {
    const a = state[0]!;
    const b = state[1]!;
    const c = state[2]!;
    const t = (a + b + state[3]!) | 0;
    state[3] = (state[3]! + 1) | 0;
    state[0] = b ^ (b >>> 9);
    state[1] = (c + (c << 3)) | 0;
    state[2] = (((c << 21) | (c >>> 11)) + t) | 0;
    return t >>> 0;
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
