/**
 * A policy of its own, as an example of what the interface allows: checkpoint after a slice
 * when the work it would save is worth more than the checkpoint costs — when the probability
 * that the host fails before that much work is done again, times that work, reaches the cost:
 *
 *   checkpoint after slice i  ⇔  F(W_i) · W_i ≥ c_i,
 *
 * W_i the compute time since the last checkpoint up to the end of slice i, c_i the cost of a
 * checkpoint after it, F the availability law's CDF (the law the built-in policies plan with).
 * A restart download counts as unsaved work before the first slice. This is a heuristic for
 * illustration, not a policy from the papers.
 *
 *   ckpt simulate bkt --clients 500 --jobs 100 --policies none,pckp --policy-module examples/policies/expected-loss.mjs
 */
export default {
  name: "expected-loss",
  plan({ sliceSeconds, checkpointSeconds, downloadSeconds, law }) {
    const checkpoints = [];
    let unsaved = downloadSeconds;
    for (let i = 1; i <= sliceSeconds.length; i++) {
      unsaved += sliceSeconds[i - 1];
      if (law.cdf(unsaved) * unsaved >= checkpointSeconds[i - 1]) {
        checkpoints.push(i);
        unsaved = 0;
      }
    }
    return checkpoints; // the last slice is saved whatever this says (its upload is the result)
  },
};
