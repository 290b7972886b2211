import { defineConfig } from "vitest/config";

/**
 * Tests on the live schedulers started by test/cluster/*.sh: one file at a time (they share
 * the daemons), after the other tests (groupOrder), so that their daemons' load does not
 * slow the notebooks' kernels past their start-up timeout.
 */
const LIVE_CLUSTER = ["test/cluster/**/*.test.ts", "test/release/*-release.test.ts"];
/**
 * The packed tarball installed into a new prefix (test/package/): once per suite, on the
 * machine's Node, not again in the unit run on the newest LTS (test/run-all.sh): it packs,
 * installs ~300 packages and runs the pipeline twice, minutes that would not test more there.
 */
const PACKAGE = ["test/package/**/*.test.ts"];

export default defineConfig({
  test: {
    setupFiles: ["test/setup.ts"],
    // Pinned so that anything date- or locale-sensitive is reproducible.
    env: { TZ: "UTC", LANG: "C.UTF-8" },
    testTimeout: 60_000,
    hookTimeout: 120_000,
    projects: [
      { extends: true, test: { name: "unit", include: ["test/**/*.test.ts"], exclude: [...LIVE_CLUSTER, ...PACKAGE], sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: "package", include: PACKAGE, sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: "cluster", include: LIVE_CLUSTER, fileParallelism: false, sequence: { groupOrder: 1 } } },
    ],
  },
});
