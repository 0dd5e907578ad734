import { defineConfig } from "vitest/config";

/** Unit and API tests run beside the code; browser tests drive the built site in system Chromium. */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          globalSetup: ["tests/support/unit-setup.ts"],
          setupFiles: ["tests/support/i18n-setup.ts"],
          include: ["common/**/*.test.ts", "app/**/*.test.ts", "features/**/*.test.ts", "server/**/*.test.ts", "scripts/**/*.test.ts"],
          environment: "node",
          pool: "forks",
          maxWorkers: 2,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: "e2e",
          include: ["tests/e2e/**/*.test.ts"],
          environment: "node",
          globalSetup: ["tests/e2e/global-setup.ts"],
          setupFiles: ["tests/support/i18n-setup.ts"],
          pool: "forks",
          maxWorkers: 1,
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
