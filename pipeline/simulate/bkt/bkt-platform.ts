/**
 * The [BKT] platform and workload of one seed (docs/science.md §6.1.1–6.1.2), drawn from
 * streams keyed by purpose and entity, so that every policy run with this seed sees the same
 * clients and the same jobs (common random numbers, docs/science.md §6.4):
 *
 * - client c: speed from "speeds"/c, Normal(mean, sd) redrawn below `minSpeedMips` (the
 *   number of redraws is recorded); link from "links"/c, uniform; lifetime end from
 *   "lifetimes"/c (Infinity for "none");
 * - job j from "workload"/j: its slice count (discrete uniform), then per slice its work in
 *   millions of instructions (`sliceHours` on a host of the mean speed) and its checkpoint
 *   image (Mbit, ×8 when sizes are read as MB).
 *
 * Columns of typed arrays, indexed by client and by job; a job's slices are the range
 * [sliceStart[j], sliceStart[j + 1]) of the flat slice arrays.
 */
import type { RandomStreams } from "../engine/random-streams";
import { bktLaw, type BktScenario } from "./bkt-scenario";

export interface BktPlatform {
  speedMips: Float64Array;
  linkMbps: Float64Array;
  /** When each client leaves for good, seconds (Infinity: never). */
  lifetimeEndS: Float64Array;
  /** Speed draws redrawn because they fell below minSpeedMips. */
  speedRedraws: number;
  sliceStart: Int32Array;
  /** Per slice: work in millions of instructions, image after it in Mbit. */
  workMi: Float64Array;
  imageMbit: Float64Array;
}

export function drawPlatform(scenario: BktScenario, streams: RandomStreams): BktPlatform {
  const clients = scenario.clients;
  const speedMips = new Float64Array(clients);
  const linkMbps = new Float64Array(clients);
  const lifetimeEndS = new Float64Array(clients);
  const lifetime = scenario.lifetime === "none" ? null : bktLaw(scenario.lifetime, "lifetime");
  let speedRedraws = 0;
  for (let c = 0; c < clients; c++) {
    const speeds = streams.stream("speeds", c);
    let speed = scenario.speedMips.mean + scenario.speedMips.sd * speeds.normal();
    // A bounded number of redraws: with the preset a redraw happens for 0.86 % of clients.
    for (let tries = 0; speed < scenario.minSpeedMips && tries < 1000; tries++) {
      speed = scenario.speedMips.mean + scenario.speedMips.sd * speeds.normal();
      speedRedraws++;
    }
    speedMips[c] = Math.max(speed, scenario.minSpeedMips);
    linkMbps[c] = streams.stream("links", c).uniform(scenario.hostMbps[0], scenario.hostMbps[1]);
    lifetimeEndS[c] = lifetime === null ? Infinity : lifetime.sample(streams.stream("lifetimes", c));
  }
  const jobs = scenario.jobs;
  const counts = new Int32Array(jobs);
  const workload = (j: number) => streams.stream("workload", j);
  let total = 0;
  for (let j = 0; j < jobs; j++) {
    counts[j] = workload(j).integer(scenario.slicesPerJob[0], scenario.slicesPerJob[1]);
    total += counts[j]!;
  }
  const sliceStart = new Int32Array(jobs + 1);
  const workMi = new Float64Array(total);
  const imageMbit = new Float64Array(total);
  const unit = scenario.checkpointSizeUnit === "MB" ? 8 : 1;
  for (let j = 0, s = 0; j < jobs; j++) {
    sliceStart[j] = s;
    const random = workload(j);
    for (let k = 0; k < counts[j]!; k++, s++) {
      workMi[s] = random.uniform(scenario.sliceHours[0], scenario.sliceHours[1]) * 3600 * scenario.speedMips.mean;
      imageMbit[s] = unit * random.uniform(scenario.checkpointMbit[0], scenario.checkpointMbit[1]);
    }
    sliceStart[j + 1] = s;
  }
  return { speedMips, linkMbps, lifetimeEndS, speedRedraws, sliceStart, workMi, imageMbit };
}
