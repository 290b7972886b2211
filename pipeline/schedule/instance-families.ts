/**
 * The instances of the papers' campaigns (docs/science.md §4.5–§4.6), generated from a seed so that
 * a campaign over seeds is reproducible byte for byte.
 *
 * - Random families A, B, C ([Y11] Tables 4–9, [Y-thesis] Tables 7.3–7.8): sizes uniform
 *   in [100, 500] MB, p uniform in the family's range.
 * - Identical sizes ([Y-thesis] Table 7.2, [Y11] Table 3): n = 50, T = 300 s,
 *   p = 26, 27, …, 75, one size for all (10, 50, 100, 200 or 400 MB). Deterministic.
 * - Waves ([Y-thesis] §6.4): 25 nodes × 4 applications, T = 600 s, p in [300, 1800]; the
 *   thesis does not give the sizes, so they follow the families' [100, 500] MB (an
 *   assumption, stated in the campaign output).
 * - Scaling: family C's distributions with n free and T = 6 n s — the families' own ratio
 *   (A: 7.2 n, B and C: 6 n) — for scheduler time against n.
 *
 * Decision: p and sizes are drawn as integers (seconds, MB), as the papers' integer CTNYS
 * values suggest. Each (family, seed) has its own stream (FNV-1a of "family:seed").
 */
import { createRandom } from "../shared/random";
import type { Application } from "./application";

export type FamilyName = "A" | "B" | "C";
export const FAMILY_NAMES: readonly FamilyName[] = ["A", "B", "C"];

export interface FamilySpec {
  n: number;
  deadlineS: number;
  pMinS: number;
  pMaxS: number;
  sizeMinMb: number;
  sizeMaxMb: number;
}

/** docs/science.md §4.5, random families (sizes uniform in [100, 500] MB). */
export const FAMILIES: Readonly<Record<FamilyName, FamilySpec>> = {
  A: { n: 25, deadlineS: 180, pMinS: 60, pMaxS: 600, sizeMinMb: 100, sizeMaxMb: 500 },
  B: { n: 50, deadlineS: 300, pMinS: 300, pMaxS: 1800, sizeMinMb: 100, sizeMaxMb: 500 },
  C: { n: 70, deadlineS: 420, pMinS: 300, pMaxS: 1800, sizeMinMb: 100, sizeMaxMb: 500 },
};

/** docs/science.md §4.5, identical sizes: n = 50, T = 300 s, p = 26..75. */
export const IDENTICAL_SIZE_CAMPAIGN = { n: 50, deadlineS: 300, firstPS: 26, sizesMb: [10, 50, 100, 200, 400] } as const;

/** docs/science.md §4.6: 25 nodes × 4 applications, T = 600 s, k0 = 2, p in [300, 1800]; sizes assumed [100, 500] MB. */
export const WAVES_CAMPAIGN = {
  nodes: 25,
  appsPerNode: 4,
  deadlineS: 600,
  k0: 2,
  pMinS: 300,
  pMaxS: 1800,
  sizeMinMb: 100,
  sizeMaxMb: 500,
  sizeAssumption: "the thesis does not state the sizes; drawn uniform in [100, 500] MB like the random families",
} as const;

/** FNV-1a of a string: one independent seed per (family, seed). */
export function seedFor(label: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < label.length; i++) {
    hash ^= label.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

export function randomInstance(spec: FamilySpec, label: string, seed: number): Application[] {
  const random = createRandom(seedFor(`${label}:${seed}`));
  return Array.from({ length: spec.n }, (_, i) => ({
    id: `${label}-${seed}-${i + 1}`,
    pS: random.integer(spec.pMinS, spec.pMaxS),
    sizeMb: random.integer(spec.sizeMinMb, spec.sizeMaxMb),
  }));
}

/** A family-A/B/C instance. */
export function familyInstance(family: FamilyName, seed: number): Application[] {
  return randomInstance(FAMILIES[family], family, seed);
}

/** The identical-size instance for one size. */
export function identicalSizeInstance(sizeMb: number): Application[] {
  const { n, firstPS } = IDENTICAL_SIZE_CAMPAIGN;
  return Array.from({ length: n }, (_, i) => ({ id: `same-${sizeMb}-${i + 1}`, pS: firstPS + i, sizeMb }));
}

/** A §4.6 instance: applications listed node by node, with their node. */
export function wavesInstance(seed: number): Application[] {
  const c = WAVES_CAMPAIGN;
  const random = createRandom(seedFor(`W:${seed}`));
  const apps: Application[] = [];
  for (let node = 1; node <= c.nodes; node++) {
    for (let k = 1; k <= c.appsPerNode; k++) {
      apps.push({ id: `W-${seed}-n${node}-${k}`, pS: random.integer(c.pMinS, c.pMaxS), sizeMb: random.integer(c.sizeMinMb, c.sizeMaxMb), node: `n${node}` });
    }
  }
  return apps;
}

/** Family C's distributions at any n, with T = 6 n s. */
export function scaledFamilyC(n: number): FamilySpec {
  return { ...FAMILIES.C, n, deadlineS: 6 * n };
}
