import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildInputs } from "./build-if-needed.ts";

const root = path.resolve(import.meta.dirname, "..");

function sourceFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const file = path.join(folder, name);
    if (statSync(file).isDirectory()) return sourceFiles(file);
    // Test files beside the pages are not part of the build.
    return /\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name) ? [file] : [];
  });
}

describe("build inputs", () => {
  it("cover every folder the pages import from, so a changed module never serves a stale build", () => {
    const imported = new Set<string>();
    for (const file of sourceFiles(path.join(root, "app"))) {
      for (const match of readFileSync(file, "utf8").matchAll(/from\s+"(\.{1,2}\/[^"]+)"/g)) {
        const target = path.relative(root, path.resolve(path.dirname(file), match[1]!));
        imported.add(target.split(path.sep)[0]!);
      }
    }
    for (const folder of imported) expect(buildInputs, `app/ imports from ${folder}/`).toContain(folder);
  });
});
