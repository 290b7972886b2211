/**
 * The releases a replay half makes: release d takes the d-th replay run (in time order) of
 * every cell, so runs measured together stay together — whatever a campaign's repetition
 * shares across cells (a server state, a neighbour's load) is replayed as it was, not
 * averaged away by drawing cells independently. Each release is a measured device
 * (measured-bandwidth.ts).
 */
import type { BandwidthFunction } from "../bandwidth-oracle";
import { measuredBandwidth } from "./measured-bandwidth";
import type { RunSplit } from "./split-runs";

export function replayReleases(split: RunSplit): BandwidthFunction[] {
  const cells = [...split.replayByCell.values()];
  return Array.from({ length: split.releases }, (_, d) =>
    measuredBandwidth(
      cells.map((cell) => ({ m: cell.m, sizeMb: cell.sizeMb, bwMbPerS: cell.runs[d]!.aggregatedBwMbPerS })),
      `replay release ${d + 1}`,
    ),
  );
}
