import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * `npm test`: every test (unit, API on PGlite and, with TEST_DATABASE_URL, PostgreSQL; browser),
 * then one closing line "N passed, N failed". Extra arguments go to vitest.
 *
 * A test file whose worker process died (Node 24's V8 has aborted a worker now and then with
 * "Check failed: jit_page_->allocations_.erase(addr) == 1" while freeing WebAssembly code, the
 * embedded database's, on a background thread) is run once more on its own, and its second
 * result counts. Only such files are: a file with a failing test, or an unhandled error that is
 * not a worker's exit, fails the run as before.
 */
const started = Date.now();
const workDir = mkdtempSync(path.join(tmpdir(), "circles-vitest-"));

interface FileResult {
  name: string;
  status: string;
  startTime: number;
  endTime: number;
  assertionResults: { status: string }[];
}

interface Report {
  testResults: FileResult[];
}

/** Runs vitest, showing its output as it comes and keeping it to read the unhandled errors. */
function runVitest(report: string, args: string[]): Promise<{ status: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn("vitest", ["run", "--reporter=default", "--reporter=json", `--outputFile.json=${report}`, ...args], {
      stdio: ["inherit", "pipe", "pipe"],
      env: process.env,
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      process.stdout.write(chunk);
      output += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      process.stderr.write(chunk);
      output += chunk.toString();
    });
    child.on("close", (code) => resolve({ status: code ?? 1, output }));
  });
}

function readReport(file: string): Report | null {
  return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as Report) : null;
}

const count = (file: FileResult, status: string) => file.assertionResults.filter((test) => test.status === status).length;
/** A file that failed with no failing test: it did not load, or its worker died. */
const failedOutsideTests = (file: FileResult) => file.status === "failed" && count(file, "failed") === 0;

// Escape codes stripped, so the counts read the same in a terminal and in a log.
// eslint-disable-next-line no-control-regex
const plain = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, "");

/** Files whose worker died, as vitest names them in its unhandled errors. */
function crashedFiles(output: string): { files: Set<string>; unhandled: number } {
  const text = plain(output);
  const files = new Set([...text.matchAll(/Worker exited unexpectedly[^\n]*? while running test file (\S+)/g)].map((match) => match[1]!));
  const caught = /Vitest caught (\d+) unhandled errors? during the test run/.exec(text);
  return { files, unhandled: caught ? Number(caught[1]) : 0 };
}

/** Where the time goes, so a file that grows slow is seen in every run (the closing line stays last). */
function printSlowestFiles(results: FileResult[], howMany = 10) {
  const files = results
    .map((file) => ({ name: path.relative(process.cwd(), file.name), seconds: (file.endTime - file.startTime) / 1000 }))
    .sort((a, b) => b.seconds - a.seconds)
    .slice(0, howMany);
  if (files.length === 0) return;
  console.log(`\nThe ${files.length} slowest test files (of ${results.length}; ${Math.round((Date.now() - started) / 1000)} s in all):`);
  for (const file of files) console.log(`${file.seconds.toFixed(1).padStart(8)} s  ${file.name}`);
}

const first = await runVitest(path.join(workDir, "report.json"), process.argv.slice(2));
const report = readReport(path.join(workDir, "report.json"));
let results = report?.testResults ?? [];
let ok = report !== null && first.status === 0;

if (report && first.status !== 0) {
  const crashed = crashedFiles(first.output);
  const again = results.filter((file) => failedOutsideTests(file) && crashed.files.has(file.name));
  // Only when every unhandled error was a worker's exit and every such file is run again.
  if (again.length > 0 && crashed.unhandled === crashed.files.size && again.length === crashed.files.size) {
    const names = again.map((file) => path.relative(process.cwd(), file.name));
    console.log(`\nA worker process died while running ${names.join(", ")}: running ${again.length === 1 ? "it" : "them"} once more.`);
    const second = await runVitest(path.join(workDir, "again.json"), names);
    const rerun = readReport(path.join(workDir, "again.json"));
    if (rerun) {
      const replaced = new Set(again.map((file) => file.name));
      results = [...results.filter((file) => !replaced.has(file.name)), ...rerun.testResults];
      const otherFailures = results.some((file) => file.status === "failed");
      ok = second.status === 0 && !otherFailures;
    }
  }
}

printSlowestFiles(results);
const passed = results.reduce((sum, file) => sum + count(file, "passed"), 0);
let failed = results.reduce((sum, file) => sum + count(file, "failed") + (failedOutsideTests(file) ? 1 : 0), 0);
// A failing run always says so in its closing line (an unhandled error outside any file, say).
if (!ok && failed === 0) failed = 1;
console.log(`${passed} passed, ${failed} failed`);
process.exit(ok ? 0 : 1);
