/**
 * Seeded random streams split per purpose (NumPy's SeedSequence.spawn, in spirit): the
 * stream of a quantity is keyed by (seed, stream name, entity index) — e.g. ("1",
 * "availability", 17) for host 17's availability sequence — and is independent of every
 * other stream and of the order in which streams are used. Two runs of different policies
 * with the same seed therefore see the same hosts, the same availability histories and the
 * same jobs (common random numbers, docs/science.md §6.4); only what depends on the policy
 * differs.
 *
 * The key's text is hashed four times (FNV-1a with four different offset bases) into the
 * 128-bit state of the project's sfc32 generator (pipeline/shared/random.ts): a stream is a
 * deterministic function of its key on every machine, and two keys share a state only if
 * all four hashes collide (a single 32-bit seed would make a shared stream likely among the
 * ~10^5 streams of a 20 000-client run).
 */
import { createRandomFromWords, type Random } from "../../shared/random";

export interface RandomStreams {
  readonly seed: number;
  /** The stream of `name` for entity `index` (created on first use, then the same object). */
  stream(name: string, index?: number): Random;
  /** `index ↦ stream(name, index)` with an array cache, for hot loops (no string key per draw). */
  family(name: string): (index: number) => Random;
}

/** FNV-1a of a string, 32 bits, from offset basis `basis`. */
function fnv1a(text: string, basis: number): number {
  let hash = basis >>> 0;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

export function createRandomStreams(seed: number): RandomStreams {
  if (!Number.isInteger(seed)) throw new RangeError(`seed must be an integer, got ${seed}`);
  const streams = new Map<string, Random>();
  const stream = (name: string, index = 0): Random => {
    const key = `${seed}\u0000${name}\u0000${index}`;
    let random = streams.get(key);
    if (random === undefined) {
      random = createRandomFromWords([fnv1a(key, 0x811c9dc5), fnv1a(key, 0x9e3779b9), fnv1a(key, 0x85ebca6b), fnv1a(key, 0xc2b2ae35)]);
      streams.set(key, random);
    }
    return random;
  };
  return {
    seed,
    stream,
    family(name) {
      const cache: Random[] = [];
      return (index) => (cache[index] ??= stream(name, index));
    },
  };
}
