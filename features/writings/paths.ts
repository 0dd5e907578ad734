import type { WritingLanguage, WritingType } from "./schema.ts";

/**
 * Where a writing is read (without the /en prefix: `localizePath` adds it). Posts live under
 * `/circles/{cid}/posts/{id}`, articles and serialized articles under `/circles/{cid}/writing/{id}`,
 * a language version under `…/{id}/{lang}`.
 */
export function writingPath(writing: { id: number; circleId: number; type: WritingType }, language?: WritingLanguage): string {
  if (writing.type === "post") return `/circles/${writing.circleId}/posts/${writing.id}`;
  return `/circles/${writing.circleId}/writing/${writing.id}${language ? `/${language}` : ""}`;
}

/** The editor of a circle for a type: posts have their own page. */
export function editorPath(circleId: number, type: WritingType): string {
  return type === "post" ? `/circles/${circleId}/post` : `/circles/${circleId}/write/article`;
}
