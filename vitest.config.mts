import { defineConfig } from "vitest/config";

/**
 * Tests on the live schedulers started by test/cluster/*.sh: one file at a time (they share
 * the daemons), after the other tests (groupOrder), so that their daemons' load does not
 * slow the notebooks' kernels past their start-up timeout.
 */
const LIVE_CLUSTER = ["test/cluster/**/*.test.ts", "test/release/*-release.test.ts"];

export default defineConfig({
  test: {
    setupFiles: ["test/setup.ts"],
    // Pinned so that anything date- or locale-sensitive is reproducible.
    env: { TZ: "UTC", LANG: "C.UTF-8" },
    testTimeout: 60_000,
    hookTimeout: 120_000,
    projects: [
      { extends: true, test: { name: "unit", include: ["test/**/*.test.ts"], exclude: LIVE_CLUSTER, sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: "cluster", include: LIVE_CLUSTER, fileParallelism: false, sequence: { groupOrder: 1 } } },
    ],
  },
});
