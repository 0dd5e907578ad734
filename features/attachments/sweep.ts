import { sql } from "drizzle-orm";
import type { Database } from "../../server/db/client.ts";
import type { FileStore } from "./file-store.server.ts";
import { registeredKinds } from "../subjects/registry.ts";

/**
 * Images stored before the record that shows them: a cover, a circle logo or an avatar is
 * re-encoded and stored first (never inside a transaction: image work would block the embedded
 * store), then the record is written. When that write fails (a taken circle name, a stale edit),
 * or a later edit replaces the image, the file is left over. Images in Markdown (`upload`) are
 * not swept: any text may name them.
 */
export const sweptPurposes = ["cover", "circle_logo", "avatar", "avatar_small"] as const;

/** Older than this, an image nothing uses is gone: a draft or a half-filled form keeps its cover for two days. */
export const orphanAgeMs = 2 * 24 * 60 * 60 * 1000;

/**
 * Deletes, in one statement, up to `limit` swept images older than `orphanAgeMs` that no
 * registered subject kind references (`referencesAttachment`: writings and their drafts, books,
 * circles, users), then their files. Returns the ids removed. The conditions are
 * part of the DELETE itself, so an image given a use while the sweep runs is kept.
 */
export async function sweepOrphanedAttachments(
  options: { db: Database; files: FileStore },
  now = new Date(),
  limit = 500,
): Promise<string[]> {
  const cutoff = new Date(now.getTime() - orphanAgeMs);
  const fileId = sql.raw("a.file_id");
  const references = registeredKinds().flatMap((kind) => (kind.referencesAttachment ? [kind.referencesAttachment(fileId)] : []));
  const result = await options.db.execute<{ file_id: string }>(sql`
    delete from attachments a
    where a.file_id in (
      select file_id from attachments
      where created_at < ${cutoff.toISOString()}::timestamptz and purpose in (${sql.join(
        sweptPurposes.map((purpose) => sql`${purpose}`),
        sql`, `,
      )})
      order by created_at
      limit ${limit}
    )
    ${sql.join(
      references.map((reference) => sql`and not ${reference}`),
      sql` `,
    )}
    returning a.file_id`);
  const removed = (result as unknown as { rows: { file_id: string }[] }).rows.map((row) => row.file_id);
  for (const fileId of removed) await options.files.delete(fileId);
  return removed;
}
