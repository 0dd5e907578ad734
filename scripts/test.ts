import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * `npm test`: every test (unit, API on PGlite and, with TEST_DATABASE_URL, PostgreSQL; browser),
 * then one closing line "N passed, N failed". Extra arguments go to vitest.
 */
const started = Date.now();
const report = path.join(mkdtempSync(path.join(tmpdir(), "circles-vitest-")), "report.json");
const result = spawnSync(
  "vitest",
  ["run", "--reporter=default", "--reporter=json", `--outputFile.json=${report}`, ...process.argv.slice(2)],
  {
    stdio: "inherit",
    env: process.env,
  },
);

interface Report {
  numPassedTests: number;
  numFailedTests: number;
  numFailedTestSuites: number;
  numTotalTests: number;
  testResults: { name: string; startTime: number; endTime: number }[];
}

/** Where the time goes, so a file that grows slow is seen in every run (the closing line stays last). */
function printSlowestFiles(summary: Report, count = 10) {
  const files = summary.testResults
    .map((file) => ({ name: path.relative(process.cwd(), file.name), seconds: (file.endTime - file.startTime) / 1000 }))
    .sort((a, b) => b.seconds - a.seconds)
    .slice(0, count);
  if (files.length === 0) return;
  console.log(
    `\nThe ${files.length} slowest test files (of ${summary.testResults.length}; ${Math.round((Date.now() - started) / 1000)} s in all):`,
  );
  for (const file of files) console.log(`${file.seconds.toFixed(1).padStart(8)} s  ${file.name}`);
}

let passed = 0;
let failed: number;
if (existsSync(report)) {
  const summary = JSON.parse(readFileSync(report, "utf8")) as Report;
  printSlowestFiles(summary);
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
