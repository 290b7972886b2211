// The core modules that `npm run mutation` mutates, each with the source files it mutates
// (the stage functions whose values the reports rest on, not their file readers or
// printers) and the test files that may kill their mutants. Stryker runs, for each mutant,
// only the tests among these that executed its code in the first (coverage) run.
//
// The tests are unit tests only: the live-cluster and package projects of vitest.config.mts
// need machine-wide services and minutes per run, and staleness checks (a stored result
// against a hash of the code) fail on any edit, so a mutant they kill says nothing about the
// tests. A module's name is its folder under pipeline/.
"use strict";

/** @type {Record<string, { mutate: string[], testFiles: string[] }>} */
const MUTATION_MODULES = {
  // The row ledger (every input row used or rejected, with its reason) and the aggregation
  // of runs into observations.
  ingest: {
    mutate: [
      "pipeline/ingest/row-ledger.ts",
      "pipeline/ingest/reject-reasons.ts",
      "pipeline/ingest/summarise-runs.ts",
      "pipeline/ingest/run-table.ts",
      "pipeline/ingest/process-values.ts",
      "pipeline/ingest/observations.ts",
      "pipeline/ingest/canonical-row.ts",
      "pipeline/ingest/bandwidth-definition.ts",
    ],
    testFiles: ["test/ingest/*.test.ts", "test/commands/ingest-*.test.ts"],
  },
  // The release plan: who checkpoints in which wave before the deadline, what is lost.
  release: {
    mutate: ["pipeline/release/release-plan.ts", "pipeline/release/hostlist.ts", "pipeline/release/release-triggers.ts"],
    testFiles: [
      "test/release/release-plan.test.ts",
      "test/release/hostlist.test.ts",
      "test/release/hostlist-compress.test.ts",
      "test/release/release-plan-warnings.test.ts",
      "test/release/release-triggers.test.ts",
      "test/release/release-failures.test.ts",
      "test/release/squeue-json.test.ts",
      "test/release/slurm-adapter.test.ts",
      "test/release/oar-adapter.test.ts",
    ],
  },
  // ScheduleCkpt, ks_bw (and its knapsack), the three estimators and the campaigns'
  // confidence intervals.
  schedule: {
    mutate: [
      "pipeline/schedule/schedule-ckpt.ts",
      "pipeline/schedule/ks-bw.ts",
      "pipeline/schedule/knapsack.ts",
      "pipeline/schedule/static-estimator.ts",
      "pipeline/schedule/fluid-estimator.ts",
      "pipeline/schedule/time-estimator.ts",
      "pipeline/schedule/mean-confidence-interval.ts",
      "pipeline/schedule/evaluate-schedule.ts",
    ],
    testFiles: ["test/schedule/*.test.ts", "test/release/release-plan.test.ts"],
  },
  // The dynamic programmes (constant and variable costs) and the failure laws.
  place: {
    mutate: [
      "pipeline/place/solve-dp.ts",
      "pipeline/place/constant-cost-dp.ts",
      "pipeline/place/variable-cost-dp.ts",
      "pipeline/place/expected-waste.ts",
      "pipeline/place/objective.ts",
      "pipeline/place/laws/*.ts",
      "!pipeline/place/laws/index.ts",
      "!pipeline/place/laws/parse-durations-csv.ts",
    ],
    testFiles: ["test/place/*.test.ts"],
  },
  // The [BKT] and [DAS06] simulators and the metrics they report.
  simulate: {
    mutate: [
      "pipeline/simulate/bkt/bkt-run.ts",
      "pipeline/simulate/bkt/bkt-simulator.ts",
      "pipeline/simulate/bkt/checkpoint-policy.ts",
      "pipeline/simulate/das06/das06-run.ts",
      "pipeline/simulate/das06/das06-simulator.ts",
      "pipeline/simulate/mean-with-ci95.ts",
    ],
    testFiles: [
      "test/simulate/bkt/bkt.test.ts",
      "test/simulate/bkt/policy-module.test.ts",
      "test/simulate/das06.test.ts",
      "test/simulate/das06-iet.test.ts",
      "test/simulate/engine.test.ts",
      "test/simulate/scenario-flags.test.ts",
      "test/simulate/bkt-metrics.test.ts",
      "test/simulate/das06-metrics.test.ts",
    ],
  },
  // The bandwidth forms, least squares and the goodness-of-fit metrics.
  fit: {
    mutate: [
      "pipeline/fit/forms/*.ts",
      "pipeline/fit/least-squares.ts",
      "pipeline/fit/goodness-of-fit.ts",
      "pipeline/fit/student-t.ts",
      "pipeline/fit/incomplete-beta.ts",
      "pipeline/fit/fit-form.ts",
    ],
    testFiles: ["test/fit/*.test.ts"],
  },
};

module.exports = { MUTATION_MODULES };
