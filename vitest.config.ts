import { defineConfig } from "vitest/config";
import { LongestFirstSequencer } from "./tests/support/sequencer.ts";

/** Page tests in process (`createTestApi(kind, { pages: true })`) need the client build: they are named `*.pages.test.ts`. */
const pageTests = "**/*.pages.test.ts";
const besideTheCode = ["common/**/*.test.ts", "app/**/*.test.ts", "features/**/*.test.ts", "server/**/*.test.ts", "scripts/**/*.test.ts"];

/**
 * Unit, API and in-process page tests run first (group 0, two workers); browser tests drive the
 * built site in system Chromium only after them (group 1), so tests that take real time never
 * compete with Chromium. Browser test files run two at a time against the one server that
 * tests/e2e/global-setup.ts starts; each makes its own users, titles and circles.
 */
export default defineConfig({
  test: {
    // Called once per group: longest files first in each (tests/support/sequencer.ts).
    sequence: { sequencer: LongestFirstSequencer },
    projects: [
      {
        test: {
          name: "unit",
          globalSetup: ["tests/support/unit-setup.ts"],
          setupFiles: ["tests/support/i18n-setup.ts"],
          include: besideTheCode,
          exclude: [pageTests, "**/node_modules/**"],
          environment: "node",
          pool: "forks",
          maxWorkers: 2,
          isolate: false,
          sequence: { groupOrder: 0 },
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: "pages",
          // Same group and workers as unit: these files share its two workers.
          globalSetup: ["tests/support/unit-setup.ts", "tests/support/build-setup.ts"],
          setupFiles: ["tests/support/i18n-setup.ts"],
          include: besideTheCode.map((pattern) => pattern.replace("*.test.ts", "*.pages.test.ts")),
          environment: "node",
          pool: "forks",
          maxWorkers: 2,
          isolate: false,
          sequence: { groupOrder: 0 },
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
          maxWorkers: 2,
          fileParallelism: true,
          sequence: { groupOrder: 1 },
          // A journey takes 10–40 s on an idle machine; generous, so a busy shared machine slows it without failing it.
          testTimeout: 180_000,
          // A page waits on the one shared server, which another test file may be keeping busy: poll for 20 s, not 1 s.
          expect: { poll: { timeout: 20_000 } },
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
