import { defineConfig } from "vitest/config";

/**
 * The unit project of vitest.config.mts on its own, for `npm run mutation` (bin/mutation.js):
 * Stryker's vitest runner gives each test its own setup file and picks the test files itself
 * (bin/mutation-modules.js), and must never reach the live-cluster or package projects.
 */
export default defineConfig({
  test: {
    setupFiles: ["test/setup.ts"],
    env: { TZ: "UTC", LANG: "C.UTF-8" },
    testTimeout: 60_000,
    hookTimeout: 120_000,
    include: ["test/**/*.test.ts"],
    exclude: ["test/cluster/**", "test/release/*-release.test.ts", "test/package/**", "**/node_modules/**"],
  },
});
