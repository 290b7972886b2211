/**
 * Start-up of the command line: `ckpt --help` and `ckpt schedule --help` (the built CLI,
 * bin/ckpt.js) against `node -e 0`, the floor any Node program pays, each a fresh process,
 * alternated so that a load change hits all three alike; median of 15.
 */
import { join } from "node:path";
import { median } from "../harness";
import { ROOT, formatMs, timeProcess, type Anchor } from "./anchor";

const RUNS = 15;
const TARGET_RATIO = 2;

export function cliAnchor(): Anchor {
  const cli = join(ROOT, "bin", "ckpt.js");
  const variants = [["-e", "0"], [cli, "--help"], [cli, "schedule", "--help"]];
  const times = variants.map(() => [] as number[]);
  for (let r = 0; r <= RUNS; r++) {
    variants.forEach((args, v) => {
      const ms = timeProcess(process.execPath, args);
      if (r > 0) times[v]!.push(ms); // the first round warms the file cache
    });
  }
  const [node, help, scheduleHelp] = times.map(median) as [number, number, number];
  const worst = Math.max(help, scheduleHelp) / node;
  return {
    work: "`ckpt --help`, `ckpt schedule --help` (fresh processes)",
    reference: `\`node -e 0\`: ${formatMs(node)}`,
    ours: `${formatMs(help)}, ${formatMs(scheduleHelp)}`,
    ratio: worst,
    target: `≤ ${TARGET_RATIO}×`,
    met: worst <= TARGET_RATIO,
    notes: [`ratios to node -e 0: --help ${(help / node).toFixed(2)}×, schedule --help ${(scheduleHelp / node).toFixed(2)}× (median of ${RUNS})`],
  };
}
