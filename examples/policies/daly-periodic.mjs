/**
 * Daly's periodic checkpointing, as a policy module: the same numbers as the simulator's
 * built-in `periodic` policy with its default mapping on work (docs/science.md §6.1.5), written
 * with nothing but the interface — a test runs it next to the built-in and checks that every
 * run is the same, bit for bit.
 *
 *   ckpt simulate bkt --clients 500 --jobs 100 --policies periodic --policy-module examples/policies/daly-periodic.mjs
 *
 * The period is Daly's higher-order optimum (J.T. Daly, FGCS 22(3), 2006) for the copy's mean
 * checkpoint cost C and the law's mean time to failure M; checkpoints go after the slice whose
 * cumulated work since the last checkpoint is nearest to the period.
 */
function dalyPeriod(costSeconds, mttfSeconds) {
  if (costSeconds >= 2 * mttfSeconds) return mttfSeconds;
  const ratio = costSeconds / (2 * mttfSeconds);
  return Math.sqrt(2 * costSeconds * mttfSeconds) * (1 + Math.sqrt(ratio) / 3 + ratio / 9) - costSeconds;
}

export default {
  name: "daly-periodic",
  plan({ sliceSeconds, checkpointSeconds, law }) {
    const n = sliceSeconds.length;
    const meanCost = checkpointSeconds.reduce((sum, c) => sum + c, 0) / n;
    const period = dalyPeriod(meanCost, law.mean);
    const checkpoints = [];
    for (let last = 0; last < n; ) {
      // The next checkpoint: after the slice i > last whose work since `last` is nearest to the period (ties: the earlier).
      let sum = 0;
      let best = last + 1;
      let bestDistance = Infinity;
      for (let i = last + 1; i <= n; i++) {
        sum += sliceSeconds[i - 1];
        const distance = Math.abs(sum - period);
        if (distance < bestDistance) {
          bestDistance = distance;
          best = i;
        }
        if (sum > period) break;
      }
      checkpoints.push(best);
      last = best;
    }
    return checkpoints;
  },
};
