import { readFileSync, existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorStatus } from "../common/app-error.ts";
import type { AnyOperation } from "./lib/operation.ts";
import { createTestApi, type TestApi } from "../tests/support/api.ts";

/** Every operation definition, with the module that declares it. */
const modules = import.meta.glob<Record<string, unknown>>("../features/*/*operations.ts", { eager: true });
const operations = Object.entries(modules).flatMap(([file, exports]) =>
  Object.values(exports)
    .filter((value): value is AnyOperation => typeof value === "object" && value !== null && "failures" in value && "run" in value)
    .map((operation) => ({ operation, file: path.resolve(import.meta.dirname, file) })),
);

/** The module's own source and every module it imports, transitively (ours only, tests left out). */
function closureOf(entry: string): string[] {
  const seen = new Set<string>();
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const source = readFileSync(file, "utf8");
    for (const match of source.matchAll(/(?:from|import)\s*\(?\s*"(\.{1,2}\/[^"]+)"/g)) {
      const target = path.resolve(path.dirname(file), match[1]!);
      if (existsSync(target) && /\.tsx?$/.test(target) && !target.includes(".test.")) pending.push(target);
    }
  }
  return [...seen];
}

/** The codes a module can throw: quoted codes, without the declarations (`failures: [...]`) that only name them. */
const throwable = new Map<string, Set<string>>();
function codesIn(file: string): Set<string> {
  let codes = throwable.get(file);
  if (!codes) {
    const source = readFileSync(file, "utf8").replace(/failures:\s*\[[^\]]*\]/g, "");
    codes = new Set([...source.matchAll(/"([a-z_]+)"/g)].map((match) => match[1]!).filter((code) => code in errorStatus));
    throwable.set(file, codes);
  }
  return codes;
}

/**
 * The failures each operation declares (its `failures`) are published in OpenAPI, and each is
 * reachable: a static check that the code is named outside a declaration somewhere in the modules
 * its run path can reach (its module's import closure). That no undeclared code escapes is checked
 * at run time by `runOperation` under test (every API test fails on one), see operation.test.ts.
 */
describe("declared failures", () => {
  it("finds every operation definition", () => {
    expect(operations.length).toBeGreaterThan(100);
  });

  it("declares only codes its run path can throw", () => {
    const unreachable = operations.flatMap(({ operation, file }) => {
      const closure = closureOf(file);
      const reachable = new Set(closure.flatMap((module) => [...codesIn(module)]));
      return operation.failures.filter((code) => !reachable.has(code)).map((code) => `${operation.name}: ${code}`);
    });
    expect(unreachable).toEqual([]);
  });

  describe("in the OpenAPI document", () => {
    let api: TestApi;
    beforeAll(async () => {
      api = await createTestApi("pglite");
      await api.app.ready();
    });
    afterAll(() => api.close());

    it("lists every declared code as a response with its status", () => {
      const document = api.app.swagger() as unknown as {
        paths: Record<string, Record<string, { operationId?: string; responses?: Record<string, { description?: string }> }>>;
      };
      const published = Object.values(document.paths).flatMap((methods) => Object.values(methods));
      const byName = new Map(operations.map(({ operation }) => [operation.name, operation]));
      const served = published.filter((entry) => entry.operationId && byName.has(entry.operationId));
      expect(served.length).toBeGreaterThan(100);
      const missing = served.flatMap((entry) =>
        byName
          .get(entry.operationId!)!
          .failures.filter((code) => !entry.responses?.[String(errorStatus[code])]?.description?.includes(`\`${code}\``))
          .map((code) => `${entry.operationId}: ${code}`),
      );
      expect(missing).toEqual([]);
    });
  });
});
