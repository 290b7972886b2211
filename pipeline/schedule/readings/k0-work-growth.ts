/**
 * How much work ScheduleCkpt does at k0 = 0, 1, 2 under each reading of the algorithm, and
 * what CTNYS share it gets (the k0 investigation, docs/investigations/k0-share-rises.md): the
 * time estimates ks_bw makes per run (schedule-readings.ts counts them), which is what a
 * decision's time grows with from one k0 to the next, and the share, each a mean over seeded
 * instances of the random families. Compared with the growth of the published scheduling
 * times by reproduce/k0-claim-rows.ts.
 */
import { PAPER_MODEL } from "../../fit/model";
import { FAMILIES, familyInstance, type FamilyName } from "../instance-families";
import { resolveScheduleOptions } from "../schedule-options";
import { scheduleCkptReadings, type ScheduleReadings } from "./schedule-readings";

/** The readings compared (readings/schedule-readings.ts); the faithful one first. */
export const K0_READINGS: readonly { label: string; readings: Partial<ScheduleReadings> }[] = [
  { label: "faithful", readings: {} },
  { label: "--completion stop", readings: { completion: "stop" } },
  { label: "--candidates all", readings: { candidates: "all" } },
  { label: "--candidates all --completion stop", readings: { candidates: "all", completion: "stop" } },
  { label: "--decisions once", readings: { decisions: "once" } },
  { label: "--decisions once --candidates all", readings: { decisions: "once", candidates: "all" } },
];

export interface K0Growth {
  label: string;
  /** Mean time estimates per run at k0 = 0, 1, 2, and mean CTNYS share (%). */
  estimates: [number, number, number];
  sharePercent: [number, number, number];
}

/** Under one reading, over `seeds` instances of a family: the work and the share at k0 = 0, 1, 2. */
export function k0Growth(family: FamilyName, criterion: "p" | "density", reading: (typeof K0_READINGS)[number], seeds: number): K0Growth {
  const estimates: [number, number, number] = [0, 0, 0];
  const share: [number, number, number] = [0, 0, 0];
  for (let seed = 1; seed <= seeds; seed++) {
    const apps = familyInstance(family, seed);
    const totalP = apps.reduce((s, a) => s + a.pS, 0);
    for (const k0 of [0, 1, 2] as const) {
      const options = resolveScheduleOptions({ model: PAPER_MODEL, deadlineS: FAMILIES[family].deadlineS, k0, criterion, record: false });
      const outcome = scheduleCkptReadings(apps, options, reading.readings);
      estimates[k0] += outcome.estimates / seeds;
      share[k0] += (100 * outcome.ctnys) / totalP / seeds;
    }
  }
  return { label: reading.label, estimates, sharePercent: share };
}

/** Per family and criterion ("A p", "C density", …), the work and share under every reading. */
export interface K0Investigation {
  seeds: number;
  growths: Record<string, K0Growth[]>;
}

export function k0Investigation(seeds = 10): K0Investigation {
  const growths: Record<string, K0Growth[]> = {};
  for (const family of ["A", "B", "C"] as const) {
    for (const criterion of ["p", "density"] as const) growths[`${family} ${criterion}`] = K0_READINGS.map((reading) => k0Growth(family, criterion, reading, seeds));
  }
  return { seeds, growths };
}
