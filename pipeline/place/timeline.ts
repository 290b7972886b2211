/**
 * A placement on the job's failure-free time line, as plain data for plots (a Gantt of
 * slices and checkpoints): slice j runs from its start to start + p_j, and a checkpoint
 * after slice j occupies the next c_j seconds.
 */
import type { Checkpoints, Job } from "./job";

export interface TimelineSlice {
  /** 1-based. */
  slice: number;
  startSeconds: number;
  endSeconds: number;
}

export interface TimelineCheckpoint {
  afterSlice: number;
  startSeconds: number;
  endSeconds: number;
  costSeconds: number;
}

export interface PlacementTimeline {
  slices: TimelineSlice[];
  checkpoints: TimelineCheckpoint[];
  totalWorkSeconds: number;
  totalOverheadSeconds: number;
  /** τ_n + σ_k. */
  makespanSeconds: number;
}

export function placementTimeline(job: Job, checkpoints: Checkpoints): PlacementTimeline {
  const isCheckpoint = new Set(checkpoints);
  const slices: TimelineSlice[] = [];
  const marks: TimelineCheckpoint[] = [];
  let clock = 0;
  let work = 0;
  let overhead = 0;
  job.slicesSeconds.forEach((p, i) => {
    slices.push({ slice: i + 1, startSeconds: clock, endSeconds: clock + p });
    clock += p;
    work += p;
    if (isCheckpoint.has(i + 1)) {
      const cost = job.costsSeconds[i]!;
      marks.push({ afterSlice: i + 1, startSeconds: clock, endSeconds: clock + cost, costSeconds: cost });
      clock += cost;
      overhead += cost;
    }
  });
  return { slices, checkpoints: marks, totalWorkSeconds: work, totalOverheadSeconds: overhead, makespanSeconds: clock };
}
