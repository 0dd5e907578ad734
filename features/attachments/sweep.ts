import { sql } from "drizzle-orm";
import type { Database } from "../../server/db/client.ts";
import type { FileStore } from "./file-store.server.ts";

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
 * Deletes, in one statement, up to `limit` swept images older than `orphanAgeMs` that no writing,
 * book, draft, circle or user names, then their files. Returns the ids removed. The conditions are
 * part of the DELETE itself, so an image given a use while the sweep runs is kept.
 */
export async function sweepOrphanedAttachments(
  options: { db: Database; files: FileStore },
  now = new Date(),
  limit = 500,
): Promise<string[]> {
  const cutoff = new Date(now.getTime() - orphanAgeMs);
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
    and not exists (select 1 from writings w where w.cover_file_id = a.file_id)
    and not exists (select 1 from books b where b.cover_file_id = a.file_id)
    and not exists (select 1 from drafts d where d.fields ->> 'cover_file_id' = a.file_id)
    and not exists (select 1 from circles c where c.logo = '/attach/' || a.file_id)
    and not exists (select 1 from users u where u.avatar = '/attach/' || a.file_id or u.avatar_small = '/attach/' || a.file_id)
    returning a.file_id`);
  const removed = (result as unknown as { rows: { file_id: string }[] }).rows.map((row) => row.file_id);
  for (const fileId of removed) await options.files.delete(fileId);
  return removed;
}
