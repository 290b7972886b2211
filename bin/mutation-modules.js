// The core modules that `npm run mutation` mutates, each with the source files it mutates
// (the stage functions whose values the reports rest on, not their file readers or
// printers) and the test files that may kill their mutants. Stryker runs, for each mutant,
// only the tests among these that executed its code in the first (coverage) run.
//
// The tests are unit tests only: the live-cluster and package projects of vitest.config.mts
// need machine-wide services and minutes per run, and staleness checks (a stored result
// against a hash of the code) fail on any edit, so a mutant they kill says nothing about the
// tests. A module's name is its folder under pipeline/ (laws: pipeline/place/laws/).
"use strict";

// The tests of place and laws (below): those that check the programmes' and the laws' values
// in process (not place-command or extreme-laws, which spawn the command per case).
const placeTestFiles = [
  "test/place/batch.test.ts",
  "test/place/bkt-objective.test.ts",
  "test/place/derived-laws.test.ts",
  "test/place/dp-counters.test.ts",
  "test/place/dp.test.ts",
  "test/place/fitted-laws.test.ts",
  "test/place/law-string.test.ts",
  "test/place/laws.test.ts",
  "test/place/laws-values.test.ts",
  "test/place/simulate.test.ts",
  "test/place/solve-dp.test.ts",
  "test/place/tabulate-law.test.ts",
];

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
      "pipeline/ingest/canonical-row.ts",
      "pipeline/ingest/bandwidth-definition.ts",
    ],
    // The tests that check these files' values in process: not the command tests
    // (test/commands/ingest-*), which spawn a process per case and made a run hours long,
    // nor those of the readers, writers and generators around these files that take a
    // second or more (split-reader, observations-artifact, parser-properties, csv-dialect,
    // release-log, synthetic-azur: they hold a reading to another reading through the same
    // ledger, or check the CLI's exit codes), nor byte-interner's and reject-spool's, which
    // do not run these files; with them a run on the shared machine went past an hour and a
    // half. The ledger's and the summary's values are checked against hand computations in
    // ledger-values, run-table, summary-values, reject-messages, process-values,
    // reject-reasons and aggregation, and against the naive reading of the rules in
    // streaming-ledger.
    testFiles: [
      "test/ingest/aggregation.test.ts",
      "test/ingest/csv-line.test.ts",
      "test/ingest/decimal.test.ts",
      "test/ingest/encodings.test.ts",
      "test/ingest/fio-reader.test.ts",
      "test/ingest/host-logs.test.ts",
      "test/ingest/ior-readers.test.ts",
      "test/ingest/ledger-values.test.ts",
      "test/ingest/process-values.test.ts",
      "test/ingest/published-data.test.ts",
      "test/ingest/reject-messages.test.ts",
      "test/ingest/reject-reasons.test.ts",
      "test/ingest/rejects-csv.test.ts",
      "test/ingest/run-table.test.ts",
      "test/ingest/streaming-ledger.test.ts",
      "test/ingest/summary-values.test.ts",
    ],
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
  // confidence intervals (in pipeline/stats/ since the simulators use them too).
  schedule: {
    mutate: [
      "pipeline/schedule/schedule-ckpt.ts",
      "pipeline/schedule/ks-bw.ts",
      "pipeline/schedule/knapsack.ts",
      "pipeline/schedule/static-estimator.ts",
      "pipeline/schedule/fluid-estimator.ts",
      "pipeline/schedule/time-estimator.ts",
      "pipeline/stats/mean-confidence-interval.ts",
      "pipeline/schedule/evaluate-schedule.ts",
    ],
    // The tests that check values of these files, in process: the command tests (cli,
    // confidence-cli) spawn a process per case and would make the run hours long.
    testFiles: [
      "test/schedule/bandwidth-oracle.test.ts",
      "test/schedule/confident-plan.test.ts",
      "test/schedule/estimators.test.ts",
      "test/schedule/evaluate-schedule.test.ts",
      "test/schedule/evaluate-schedule-values.test.ts",
      "test/schedule/inputs.test.ts",
      "test/schedule/knapsack.test.ts",
      "test/schedule/ks-bw-work.test.ts",
      "test/schedule/model-applicability.test.ts",
      "test/schedule/properties.test.ts",
      "test/schedule/replay.test.ts",
      "test/schedule/schedule-ckpt-decisions.test.ts",
      "test/schedule/work-limits.test.ts",
      "test/schedule/worked-example.test.ts",
      "test/stats/mean-confidence-interval.test.ts",
    ],
  },
  // The dynamic programmes (constant and variable costs), the expected waste and the objectives.
  place: {
    mutate: [
      "pipeline/place/solve-dp.ts",
      "pipeline/place/constant-cost-dp.ts",
      "pipeline/place/variable-cost-dp.ts",
      "pipeline/place/expected-waste.ts",
      "pipeline/place/objective.ts",
    ],
    testFiles: placeTestFiles,
  },
  // The failure laws the programmes integrate, with the incomplete gamma function and the
  // normal distribution only they compute with (in pipeline/stats/ with the other numerical
  // helpers). Apart from place since together they made 2 300 mutants, hours for one run.
  laws: {
    mutate: [
      "pipeline/place/laws/*.ts",
      "!pipeline/place/laws/index.ts",
      "!pipeline/place/laws/parse-durations-csv.ts",
      "pipeline/stats/incomplete-gamma.ts",
      "pipeline/stats/standard-normal.ts",
    ],
    // The same tests as place's: the programmes' tests evaluate the laws too.
    testFiles: placeTestFiles,
  },
  // The [BKT] and [DAS06] simulators and the metrics they report: [BKT]'s clients' state
  // machine and run, its bag of jobs and its server's connections, the max-min sharing of a
  // link both servers use, [DAS06]'s run, both simulators' aggregation over seeds and the
  // mean's 95 % interval they report.
  simulate: {
    mutate: [
      "pipeline/simulate/bkt/bkt-run.ts",
      "pipeline/simulate/bkt/bkt-job-bag.ts",
      "pipeline/simulate/bkt/bkt-server.ts",
      "pipeline/simulate/bkt/bkt-simulator.ts",
      "pipeline/simulate/bkt/checkpoint-policy.ts",
      "pipeline/bandwidth/fair-shares.ts",
      "pipeline/simulate/das06/das06-run.ts",
      "pipeline/simulate/das06/das06-simulator.ts",
      "pipeline/stats/mean-confidence-interval.ts",
    ],
    // The tests that check these files' values in process (not the command, policy-module,
    // measured-server or compare-servers tests, which spawn a process per case, nor the
    // staleness checks). Not bkt.test.ts either: its scenarios take about 25 s per mutant
    // that survives them, which made the run hours long; bkt-values.test.ts checks the same
    // code on tiny scenarios computed by hand.
    testFiles: [
      "test/simulate/bkt/bkt-values.test.ts",
      "test/simulate/das06.test.ts",
      "test/simulate/das06-values.test.ts",
      "test/simulate/server/fluid-server.test.ts",
      "test/bandwidth/fair-shares.test.ts",
      "test/stats/mean-confidence-interval.test.ts",
    ],
  },
  // The bandwidth forms, least squares and the goodness-of-fit metrics.
  fit: {
    mutate: [
      "pipeline/fit/least-squares.ts",
      "pipeline/fit/goodness-of-fit.ts",
      "pipeline/stats/student-t.ts",
      "pipeline/stats/incomplete-beta.ts",
      "pipeline/fit/fit-form.ts",
      "pipeline/fit/forms/*.ts",
    ],
    // The tests that check values of these files, in process (not non-azur-fit, which
    // spawns the command). select-form, one-size-and-empirical and device-cap ingest their
    // traces in memory and take a few seconds.
    testFiles: [
      "test/fit/design-identifiability.test.ts",
      "test/fit/device-cap-and-older-models.test.ts",
      "test/fit/fit-bandwidth-model.test.ts",
      "test/fit/fit-form.test.ts",
      "test/fit/forms.test.ts",
      "test/fit/least-squares.test.ts",
      "test/fit/model.test.ts",
      "test/fit/nonlinear-fit.test.ts",
      "test/fit/one-size-and-empirical.test.ts",
      "test/fit/peak-curve.test.ts",
      "test/fit/predictive-bandwidth.test.ts",
      "test/fit/select-form.test.ts",
      "test/stats/incomplete-beta.test.ts",
      "test/stats/student-t.test.ts",
    ],
  },
};

module.exports = { MUTATION_MODULES };
