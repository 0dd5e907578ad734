import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/**
 * The repository's file paths that the documentation names, so that a renamed or deleted file
 * cannot leave a doc pointing at nothing (scripts/docs-paths.test.ts).
 */

/** A word that looks like a file: `dir/name.ext` (the extension starts with a letter). */
const fileLike = /\/[^/]*\.[A-Za-z][A-Za-z0-9]{0,5}$/;

/** Inline code spans of a Markdown text, without fenced code blocks (examples, not references). */
export function inlineCodeSpans(markdown: string): string[] {
  const withoutFences = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "");
  return [...withoutFences.matchAll(/`([^`]+)`/g)].map((match) => match[1]!.replace(/\s+/g, " ").trim());
}

/**
 * The repository paths named in inline code: words with a slash and a file extension. Left out:
 * URL paths (`/api/…`, `/sitemap.xml`), URLs, templates (`features/<domain>/policy.ts`,
 * `/attach/{file_id}`) and paths under a data folder named by its variable (`DATA_DIR/server.lock`).
 */
export function namedPaths(markdown: string): string[] {
  const paths = new Set<string>();
  for (const span of inlineCodeSpans(markdown)) {
    for (const raw of span.split(" ")) {
      const word = raw.replace(/^[("']+/, "").replace(/[)"',;:]+$/, "");
      if (!fileLike.test(word) || word.startsWith("/") || word.includes("://")) continue;
      if (/[<>{}$]/.test(word) || /^[A-Z][A-Z0-9_]*\//.test(word)) continue;
      paths.add(word);
    }
  }
  return [...paths];
}

/** Whether `named` (a path, or a glob with `*`) names at least one of `files`. */
export function namesAFile(named: string, files: ReadonlySet<string>): boolean {
  if (!named.includes("*")) return files.has(named);
  const pattern = new RegExp(
    `^${named
      .split(/(\*\*\/?|\*)/)
      .map((part) =>
        part === "**/" ? "(?:.*/)?" : part === "**" ? ".*" : part === "*" ? "[^/]*" : part.replace(/[.+?^$()[\]{}|\\]/g, "\\$&"),
      )
      .join("")}$`,
  );
  return [...files].some((file) => pattern.test(file));
}

/** Relative links to other Markdown files (`[text](features/circles.md#roles)`), without their anchors. */
export function markdownLinks(markdown: string): string[] {
  return [...markdown.matchAll(/\]\(([^)\s#]+\.md)(?:#[^)\s]*)?\)/g)].map((match) => match[1]!).filter((target) => !target.includes("://"));
}

/** Files of the working tree that belong to the repository: tracked, or new and not ignored. */
export function repositoryFiles(root: string): Set<string> {
  const output = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "-z"], { cwd: root, encoding: "utf8" });
  return new Set(output.split("\0").filter(Boolean));
}

/** README.md and every Markdown file under docs/, relative to the root. */
export function documentationFiles(root: string): string[] {
  const docs = readdirSync(path.join(root, "docs"), { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".md"))
    .map((file) => path.posix.join("docs", file.split(path.sep).join("/")));
  return ["README.md", ...docs.sort()];
}

export function readDoc(root: string, file: string): string {
  return readFileSync(path.join(root, file), "utf8");
}
