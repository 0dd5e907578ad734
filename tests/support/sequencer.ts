import { readFileSync } from "node:fs";
import path from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * Longest test files first, so the two workers finish together instead of one long file starting
 * last (the browser project's wall time fell by a fifth). A clean clone has no vitest results
 * cache, so the seconds come from a recorded run: `tests/support/test-seconds.json`, relative path →
 * seconds (files under 3 s are left out and count as 1). Refresh it from the JSON report `npm test`
 * writes when the slowest-files list printed at the end has moved.
 */
const recorded = JSON.parse(readFileSync(path.join(import.meta.dirname, "test-seconds.json"), "utf8")) as Record<string, number>;

export function recordedSeconds(moduleId: string, root: string): number {
  return recorded[path.relative(root, moduleId).split(path.sep).join("/")] ?? 1;
}

export class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const root = process.cwd();
    // Array.prototype.sort is stable: among files of equal weight vitest's own order stays.
    return [...sorted].sort((a, b) => recordedSeconds(b.moduleId, root) - recordedSeconds(a.moduleId, root));
  }
}
