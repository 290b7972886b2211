import { defineConfig } from "vitest/config";
import { COMMON_TEST_OPTIONS, LIVE_CLUSTER, PACKAGE, UNIT_EXCLUDE, UNIT_INCLUDE } from "./vitest.common.mts";

export default defineConfig({
  test: {
    ...COMMON_TEST_OPTIONS,
    projects: [
      { extends: true, test: { name: "unit", include: UNIT_INCLUDE, exclude: UNIT_EXCLUDE, sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: "package", include: PACKAGE, sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: "cluster", include: LIVE_CLUSTER, fileParallelism: false, sequence: { groupOrder: 1 } } },
    ],
  },
});
