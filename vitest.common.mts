/**
 * What every vitest configuration of the project shares: the root one (vitest.config.mts,
 * its unit, package and cluster projects) and the mutation run's (test/mutation/vitest.config.mts).
 */

/** Setup, environment and timeouts of every test run. */
export const COMMON_TEST_OPTIONS = {
  setupFiles: ["test/setup.ts"],
  // Pinned so that anything date- or locale-sensitive is reproducible.
  env: { TZ: "UTC", LANG: "C.UTF-8" },
  testTimeout: 60_000,
  hookTimeout: 120_000,
};

/**
 * Tests on the live schedulers started by test/cluster/*.sh: one file at a time (they share
 * the daemons), after the other tests (groupOrder), so that their daemons' load does not
 * slow the notebooks' kernels past their start-up timeout.
 */
export const LIVE_CLUSTER = ["test/cluster/**/*.test.ts", "test/release/*-release.test.ts"];

/**
 * The packed tarball installed into a new prefix (test/package/): once per suite, on the
 * machine's Node, not again in the unit run on the newest LTS (test/run-all.sh): it packs,
 * installs ~300 packages and runs the pipeline twice, minutes that would not test more there.
 */
export const PACKAGE = ["test/package/**/*.test.ts"];

/** The unit tests: every test file but the live-cluster and package ones. */
export const UNIT_INCLUDE = ["test/**/*.test.ts"];
export const UNIT_EXCLUDE = [...LIVE_CLUSTER, ...PACKAGE, "**/node_modules/**"];
