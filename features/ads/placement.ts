import type { Database } from "../../server/db/client.ts";
import { AppError } from "../../common/app-error.ts";
import { loadSubject } from "../subjects/registry.ts";

/*
 * Whose page a slot is on: the author of the writing, question or entry the page shows (their
 * share of the spend, and their choice to show ads at all). Remembered a minute per subject, as a
 * visitor would see it; what a visitor may not read has no creator.
 */

const memories = new WeakMap<Database, Map<string, { creatorId: number; until: number }>>();
const rememberMs = 60_000;

export async function pageCreator(db: Database, type: "writing" | "question" | "entry", id: number, now: Date): Promise<number> {
  let remembered = memories.get(db);
  if (!remembered) memories.set(db, (remembered = new Map()));
  const key = `${type}:${id}`;
  const hit = remembered.get(key);
  if (hit && hit.until > now.getTime()) return hit.creatorId;
  let creatorId = 0;
  try {
    creatorId = (await loadSubject(db, null, type, id)).authorId ?? 0;
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
  }
  if (remembered.size > 50_000) remembered.clear();
  remembered.set(key, { creatorId, until: now.getTime() + rememberMs });
  return creatorId;
}
