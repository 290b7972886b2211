import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    setupFiles: ["test/setup.ts"],
    // Pinned so that anything date- or locale-sensitive is reproducible.
    env: { TZ: "UTC", LANG: "C.UTF-8" },
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
