import path from "node:path";
import { describe, expect, it } from "vitest";
import { documentationFiles, markdownLinks, namedPaths, namesAFile, readDoc, repositoryFiles } from "./docs-paths.ts";

const root = path.resolve(import.meta.dirname, "..");

/**
 * Modules the docs already name because the architecture map reserves their sections (issue 19's
 * platform work), before they exist. Once one lands, the last test asks to take it off this list.
 */
const plannedPaths = new Set<string>([]);

describe("file paths named in the docs", () => {
  const files = repositoryFiles(root);
  const docs = documentationFiles(root);

  it("reads the README, the architecture map, the feature docs and the benchmarks", () => {
    expect(docs).toEqual(expect.arrayContaining(["README.md", "docs/ARCHITECTURE.md", "docs/benchmarks.md", "docs/features/circles.md"]));
  });

  it.each(docs)("%s names only files that exist in the repository", (doc) => {
    const missing = namedPaths(readDoc(root, doc)).filter((named) => !namesAFile(named, files) && !plannedPaths.has(named));
    expect(missing).toEqual([]);
  });

  it.each(docs)("%s links only to Markdown files that exist", (doc) => {
    const broken = markdownLinks(readDoc(root, doc))
      .map((target) => path.posix.normalize(path.posix.join(path.posix.dirname(doc), target)))
      .filter((target) => !files.has(target));
    expect(broken).toEqual([]);
  });

  it("lists as planned only modules that do not exist yet", () => {
    expect([...plannedPaths].filter((planned) => files.has(planned))).toEqual([]);
  });
});

describe("finding the paths a Markdown text names", () => {
  it("takes words with a slash and a file extension from inline code, commands included", () => {
    const text = "See `server/app.ts` and (`app/routes/writing.tsx`), run `npx vitest run features/comments/api.test.ts`.";
    expect(namedPaths(text)).toEqual(["server/app.ts", "app/routes/writing.tsx", "features/comments/api.test.ts"]);
  });

  it("leaves out URL paths, URLs, templates, data-folder paths, folders and fenced examples", () => {
    const text = [
      "`/sitemap.xml`, `GET /api/writings/{id}/view.gif`, `https://sms.example.com/send.json`,",
      "`features/<domain>/policy.ts`, `DATA_DIR/server.lock`, `features/attachments/`, `users.avatar`",
      "```ts",
      "// features/circles/example.ts",
      "```",
    ].join("\n");
    expect(namedPaths(text)).toEqual([]);
  });

  it("reads a code span broken across lines as one", () => {
    expect(namedPaths("the `tests/e2e/comments.test.ts\n  features/books/seed.ts` pair")).toEqual([
      "tests/e2e/comments.test.ts",
      "features/books/seed.ts",
    ]);
  });

  it("matches globs against the files, one segment per star", () => {
    const files = new Set(["server/db/schema/books.ts", "common/locales/en/books.json"]);
    expect(namesAFile("server/db/schema/*.ts", files)).toBe(true);
    expect(namesAFile("common/locales/zh-CN/*.json", files)).toBe(false);
    expect(namesAFile("server/*.ts", files)).toBe(false);
    expect(namesAFile("server/**/*.ts", files)).toBe(true);
    expect(namesAFile("server/db/schema/books.ts", files)).toBe(true);
  });

  it("finds relative Markdown links without their anchors, not web links", () => {
    expect(markdownLinks("[map](../ARCHITECTURE.md#layers), [c](circles.md), [w](https://example.com/x.md), [i](a.png)")).toEqual([
      "../ARCHITECTURE.md",
      "circles.md",
    ]);
  });
});
