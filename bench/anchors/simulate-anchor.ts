/**
 * The simulation engine's events per second under the hold model of
 * bench/simulate-engine.bench.ts (10^4 pending events, one in ten handled events cancels
 * and reschedules another), against the same model on a binary heap of objects, median of
 * 5 on one core. The desktop-grid models' own events/s join this line once they are
 * registered in SIMULATORS.
 */
import { median, timeRuns } from "../harness";
import { engineHold, objectHeapHold } from "../simulate-engine.bench";
import { formatRatio, type Anchor } from "./anchor";

const PENDING = 10_000;
const TARGET_M_EVENTS_PER_S = 1;

export async function simulateAnchor(): Promise<Anchor> {
  let events = 0;
  const engineMs = median(await timeRuns(() => (events = engineHold(PENDING)), 5));
  const referenceMs = median(await timeRuns(() => objectHeapHold(PENDING), 5));
  const rate = events / engineMs / 1000;
  const referenceRate = events / referenceMs / 1000;
  return {
    work: `simulation engine, hold model, ${PENDING.toLocaleString("en-US")} pending events`,
    reference: `a binary heap of objects: ${referenceRate.toFixed(2)} M events/s`,
    ours: `${rate.toFixed(2)} M events/s`,
    ratio: engineMs / referenceMs,
    target: `≥ ${TARGET_M_EVENTS_PER_S} M events/s`,
    met: rate >= TARGET_M_EVENTS_PER_S,
    notes: [`${events.toLocaleString("en-US")} events per run; time per event ${formatRatio(engineMs / referenceMs)} the object heap's`],
  };
}
