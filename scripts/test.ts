import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * `npm test`: every test (unit, API on PGlite and, with TEST_DATABASE_URL, PostgreSQL; browser),
 * then one closing line "N passed, N failed". Extra arguments go to vitest.
 */
const report = path.join(mkdtempSync(path.join(tmpdir(), "circles-vitest-")), "report.json");
const result = spawnSync(
  "vitest",
  ["run", "--reporter=default", "--reporter=json", `--outputFile.json=${report}`, ...process.argv.slice(2)],
  {
    stdio: "inherit",
    env: process.env,
  },
);

let passed = 0;
let failed: number;
if (existsSync(report)) {
  const summary = JSON.parse(readFileSync(report, "utf8")) as {
    numPassedTests: number;
    numFailedTests: number;
    numFailedTestSuites: number;
    numTotalTests: number;
  };
  passed = summary.numPassedTests;
  // A file that fails to load counts as a failure even though it ran no test.
  failed = summary.numFailedTests + (summary.numFailedTestSuites > 0 && summary.numFailedTests === 0 ? summary.numFailedTestSuites : 0);
} else {
  failed = 1;
}
const exitCode = result.status ?? 1;
if (exitCode !== 0 && failed === 0) failed = 1;
console.log(`${passed} passed, ${failed} failed`);
process.exit(exitCode);
