import { dalyPeriod, youngPeriod } from "../place/checkpoint-periods";
import { compareWithPublished, type ReproductionRow } from "./reproduction";

const HOUR = 3600;

/**
 * Daly's worked example (J.T. Daly, FGCS 22(3), 2006, Figs. 3–5; docs/science.md §5.4): checkpoint
 * cost 5 min, mean time to interrupt 24 h, 6 h, 15 min; his model's optimal periods are
 * about 117, 57 and 9.1 min: a match is equality at that printed precision.
 */
export function dalyReproductionRows(): ReproductionRow[] {
  const source = "Daly 2006 (J.T. Daly, FGCS 22(3)), Figs. 3–5 (docs/science.md §5.4)";
  const cost = 5 * 60;
  const cases = [
    { mttf: "24 h", mttfSeconds: 24 * HOUR, published: 117 },
    { mttf: "6 h", mttfSeconds: 6 * HOUR, published: 57 },
    { mttf: "15 min", mttfSeconds: 15 * 60, published: 9.1 },
  ];
  return cases.map((c) => {
    const ours = dalyPeriod(cost, c.mttfSeconds) / 60;
    return compareWithPublished({
      id: `daly/${c.mttf.replace(" ", "")}`,
      quantity: `Daly's optimal checkpoint period, C = 5 min, M = ${c.mttf}`,
      source,
      paper: c.published,
      ours: Math.round(ours * 1e4) / 1e4,
      unit: "min",
      how: `place.dalyPeriod(300 s, ${c.mttfSeconds} s) (Young's first order gives ${(youngPeriod(cost, c.mttfSeconds) / 60).toFixed(1)} min)`,
    });
  });
}
