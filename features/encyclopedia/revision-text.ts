import { createHash } from "node:crypto";
import { diffArrays, diffChars, diffWordsWithSpace } from "diff";
import { diff3Merge } from "node-diff3";
import type { StoredEntrySnapshot } from "../../server/db/schema/encyclopedia.ts";
import type { EntryLanguage } from "./schema.ts";

/*
 * Pure work on revisions: the content address of a snapshot, diffs between two snapshots (word
 * level for English, character level for Chinese, moved paragraphs found), and the three-way
 * merge of two edits made on the same revision.
 */

export type EntrySnapshot = StoredEntrySnapshot;

/** The same JSON for the same content, whatever the key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

/** The content address of a snapshot: identical content is stored once. */
export function snapshotHash(snapshot: EntrySnapshot): string {
  return createHash("sha256").update(canonical(snapshot)).digest("hex");
}

/** A piece of text in a diff: unchanged, only in the newer revision, or only in the older one. */
export interface DiffPart {
  kind: "same" | "added" | "removed";
  text: string;
}

/**
 * A paragraph-level block of a diff: unchanged, changed (its parts word- or character-level),
 * or moved (the same paragraph elsewhere: `from` where it left, `to` where it arrived).
 */
export type DiffBlock =
  | { kind: "same"; text: string }
  | { kind: "changed"; parts: DiffPart[] }
  | { kind: "moved_from"; text: string }
  | { kind: "moved_to"; text: string };

function paragraphs(text: string): string[] {
  return text
    .replace(/\r\n?/g, "\n")
    .split(/\n{2,}/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph !== "");
}

/** Word level for English, character level for Chinese (whose words have no spaces between them). */
export function diffWithin(from: string, to: string, language: EntryLanguage): DiffPart[] {
  const changes = language === "en" ? diffWordsWithSpace(from, to) : diffChars(from, to);
  return changes.map((change) => ({ kind: change.added ? "added" : change.removed ? "removed" : "same", text: change.value }));
}

/** The description's diff between two revisions, by paragraph, moved paragraphs marked. */
export function diffContent(from: string, to: string, language: EntryLanguage): DiffBlock[] {
  const changes = diffArrays(paragraphs(from), paragraphs(to));
  const removed = new Set(changes.filter((change) => change.removed).flatMap((change) => change.value));
  const added = new Set(changes.filter((change) => change.added).flatMap((change) => change.value));
  const moved = new Set([...removed].filter((paragraph) => added.has(paragraph)));
  const blocks: DiffBlock[] = [];
  let pendingRemoved: string[] = [];
  let pendingAdded: string[] = [];
  // A moved paragraph inside a run of changes waits until the run ends, so the run's words still compare.
  let deferred: DiffBlock[] = [];
  const flush = () => {
    if (pendingRemoved.length > 0 || pendingAdded.length > 0)
      blocks.push({ kind: "changed", parts: diffWithin(pendingRemoved.join("\n\n"), pendingAdded.join("\n\n"), language) });
    blocks.push(...deferred);
    pendingRemoved = [];
    pendingAdded = [];
    deferred = [];
  };
  for (const change of changes) {
    for (const paragraph of change.value) {
      if (change.removed && moved.has(paragraph)) deferred.push({ kind: "moved_from", text: paragraph });
      else if (change.added && moved.has(paragraph)) deferred.push({ kind: "moved_to", text: paragraph });
      else if (change.removed) pendingRemoved.push(paragraph);
      else if (change.added) pendingAdded.push(paragraph);
      else {
        flush();
        blocks.push({ kind: "same", text: paragraph });
      }
    }
  }
  flush();
  return blocks;
}

export const snapshotFields = ["name", "aliases", "disambiguation", "parent_id", "content", "references", "citation", "photos"] as const;
export type SnapshotField = (typeof snapshotFields)[number];

/** The fields that differ between two snapshots. */
export function changedFields(from: EntrySnapshot, to: EntrySnapshot): SnapshotField[] {
  return snapshotFields.filter((field) => canonical(from[field]) !== canonical(to[field]));
}

export type MergeOutcome = { merged: EntrySnapshot } | { conflicts: SnapshotField[] };

/**
 * Merges an edit made on `base` (`mine`) with the revisions saved since (`theirs`): a field only
 * one side changed takes that side; the description merges line by line three ways (diff3), so
 * edits of different places both stay; the same place changed differently on both sides is a
 * conflict (the fields named).
 */
export function mergeSnapshots(base: EntrySnapshot, theirs: EntrySnapshot, mine: EntrySnapshot): MergeOutcome {
  const merged = { ...theirs } as Record<SnapshotField, unknown>;
  const conflicts: SnapshotField[] = [];
  for (const field of snapshotFields) {
    const o = canonical(base[field]);
    const a = canonical(mine[field]);
    const b = canonical(theirs[field]);
    if (a === o || a === b) continue;
    if (b === o) {
      merged[field] = mine[field];
      continue;
    }
    if (field !== "content") {
      conflicts.push(field);
      continue;
    }
    const regions = diff3Merge(mine.content.split("\n"), base.content.split("\n"), theirs.content.split("\n"), {
      excludeFalseConflicts: true,
    });
    if (regions.some((region) => region.conflict)) conflicts.push("content");
    else merged.content = regions.flatMap((region) => region.ok ?? []).join("\n");
  }
  return conflicts.length > 0 ? { conflicts } : { merged: merged as unknown as EntrySnapshot };
}
