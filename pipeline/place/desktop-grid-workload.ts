/**
 * The desktop-grid workload of [BKT] Table II (docs/science.md §5.5), as jobs for the placer: each job
 * has Uniform{1..50} slices of Uniform[1, 5] h (the paper's instruction counts are garbled;
 * docs/science.md says to use the durations), a checkpoint size per slice of Uniform[10, 512] Mb and
 * runs on a host whose network gives Uniform[1, 2] Mb/s, so a checkpoint costs
 * size / bandwidth seconds (5 s to 512 s; both in megabits as the table writes them).
 * Seeded; one bandwidth draw per job (the job's slices run on one host).
 */
import { createRandom } from "../shared/random";
import type { Job } from "./job";

export interface DesktopGridWorkload {
  jobs: number;
  seed: number;
  minSlices?: number;
  maxSlices?: number;
  sliceSecondsRange?: [number, number];
  checkpointMegabitsRange?: [number, number];
  bandwidthMegabitsPerSecondRange?: [number, number];
}

export function desktopGridJobs({
  jobs,
  seed,
  minSlices = 1,
  maxSlices = 50,
  sliceSecondsRange = [3600, 5 * 3600],
  checkpointMegabitsRange = [10, 512],
  bandwidthMegabitsPerSecondRange = [1, 2],
}: DesktopGridWorkload): Job[] {
  const random = createRandom(seed);
  return Array.from({ length: jobs }, () => {
    const n = random.integer(minSlices, maxSlices);
    const bandwidth = random.uniform(...bandwidthMegabitsPerSecondRange);
    const slicesSeconds: number[] = [];
    const costsSeconds: number[] = [];
    for (let j = 0; j < n; j++) {
      slicesSeconds.push(random.uniform(...sliceSecondsRange));
      costsSeconds.push(random.uniform(...checkpointMegabitsRange) / bandwidth);
    }
    return { slicesSeconds, costsSeconds };
  });
}
