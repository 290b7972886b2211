import { defineConfig } from "vitest/config";
import { COMMON_TEST_OPTIONS, UNIT_EXCLUDE, UNIT_INCLUDE } from "../../vitest.common.mts";

/**
 * The unit project of vitest.config.mts on its own, for `npm run mutation` (bin/mutation.js):
 * Stryker's vitest runner gives each test its own setup file and picks the test files itself
 * (bin/mutation-modules.js), and must never reach the live-cluster or package projects.
 */
export default defineConfig({
  test: { ...COMMON_TEST_OPTIONS, include: UNIT_INCLUDE, exclude: UNIT_EXCLUDE },
});
