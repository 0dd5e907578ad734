import { and, desc, eq, isNotNull, isNull, lt, lte, sql, type SQL } from "drizzle-orm";
import type { Database, Executor } from "../../server/db/client.ts";
import { announcements, unreadCounters, users } from "../../server/db/schema/index.ts";
import { inTransaction, type ServiceOptions, type Transaction } from "../../server/lib/transactions.ts";
import { taggedMemory } from "../../server/lib/tagged-memory.ts";
import { announcementsTag } from "../../server/lib/cache-tags.ts";
import { AppError } from "../../common/app-error.ts";
import type { Locale } from "../../common/locale.ts";
import type { Viewer } from "../accounts/viewer.ts";
import { defaultAvatar } from "../accounts/presenter.ts";
import { emit } from "../events/bus.ts";
import { isSiteModerator } from "../reports/visibility.ts";
import { unreadTag } from "./unread-memory.ts";

/**
 * Site-wide announcements: site moderators write them in both languages; every user reads them in
 * `/messages/announcements` and counts the ones newer than the last they read
 * (`unread_counters.announcements_read_id`). Publishing one invalidates `announcementsTag`, which
 * wakes every live stream (in every process) to send the new counters. Staff may schedule one for
 * later (`publish-announcements` sends it when due) and withdraw one (no longer listed or counted):
 * readers only ever see announced, unwithdrawn ones (`readable`).
 */

export interface AnnouncementInput {
  titleZh: string;
  titleEn: string;
  bodyZh: string;
  bodyEn: string;
  /** When it goes out; absent or past: now. */
  publishAt?: Date;
}

/** What readers see: announced and not withdrawn. */
const readable: SQL = and(isNotNull(announcements.announcedAt), isNull(announcements.withdrawnAt))!;

export interface Announcement {
  id: number;
  title: string;
  body: string;
  author: { username: string; nickname: string; avatar: string } | null;
  createdAt: Date;
  unread: boolean;
}

export async function publishAnnouncement(options: ServiceOptions, viewer: Viewer, input: AnnouncementInput): Promise<{ id: number }> {
  if (!(await isSiteModerator(options.db, viewer.id))) throw new AppError("forbidden");
  const now = new Date();
  const { publishAt: requested, ...texts } = input;
  const publishAt = requested && requested > now ? requested : now;
  const scheduled = publishAt > now;
  return inTransaction(options, async (tx) => {
    const [row] = await tx.db
      .insert(announcements)
      .values({ authorId: viewer.id, ...texts, publishAt, announcedAt: scheduled ? null : now })
      .returning({ id: announcements.id });
    if (!scheduled) {
      await emit(tx, { verb: "announcement.published", actorId: viewer.id, subjectId: viewer.id, data: { announcementId: row!.id } });
      tx.invalidate(announcementsTag);
    }
    return row!;
  });
}

/** Sends the scheduled announcements whose time has come (the `publish-announcements` job); a second run sends nothing twice. */
export async function publishDueAnnouncements(options: ServiceOptions, now: Date): Promise<number> {
  return inTransaction(options, async (tx) => {
    const due = await tx.db
      .update(announcements)
      .set({ announcedAt: now })
      .where(and(isNull(announcements.announcedAt), isNull(announcements.withdrawnAt), lte(announcements.publishAt, now)))
      .returning({ id: announcements.id, authorId: announcements.authorId });
    for (const row of due) {
      if (row.authorId === null) continue;
      await emit(tx, { verb: "announcement.published", actorId: row.authorId, subjectId: row.authorId, data: { announcementId: row.id } });
    }
    if (due.length > 0) tx.invalidate(announcementsTag);
    return due.length;
  });
}

export type AnnouncementRow = typeof announcements.$inferSelect;

/** Withdraws an announcement (scheduled or sent): readers no longer see or count it. The row as it was, or null when unknown or already withdrawn. */
export async function withdrawAnnouncement(options: ServiceOptions, id: number, now: Date): Promise<AnnouncementRow | null> {
  return inTransaction(options, async (tx) => {
    const [before] = await tx.db.select().from(announcements).where(eq(announcements.id, id)).for("update");
    if (!before || before.withdrawnAt) return null;
    await tx.db.update(announcements).set({ withdrawnAt: now }).where(eq(announcements.id, id));
    tx.invalidate(announcementsTag);
    return before;
  });
}

/** Every announcement in both languages, newest first, for staff (scheduled and withdrawn ones too). */
export async function listAllAnnouncements(db: Executor, limit = 100): Promise<AnnouncementRow[]> {
  return db.select().from(announcements).orderBy(desc(announcements.publishAt), desc(announcements.id)).limit(limit);
}

/** How many of the newest announcements are counted at most (a counter of 100 says enough). */
const countedAnnouncements = 100;

const newestIds = taggedMemory<number[]>("announcement-ids", { ttlMs: 60_000, maxEntries: 4 });

/** The newest announcement ids, remembered until the next one is published. */
export async function newestAnnouncementIds(db: Executor): Promise<number[]> {
  return newestIds.read(db, 0, async () => {
    const rows = await db
      .select({ id: announcements.id })
      .from(announcements)
      .where(readable)
      .orderBy(desc(announcements.id))
      .limit(countedAnnouncements);
    return { value: rows.map((row) => row.id), tags: [announcementsTag] };
  });
}

/** Announcements newer than `readId`. */
export async function unreadAnnouncementCount(db: Executor, readId: number): Promise<number> {
  return (await newestAnnouncementIds(db)).filter((id) => id > readId).length;
}

/** Marks every announcement read for the user. */
export async function markAnnouncementsRead(tx: Transaction, userId: number): Promise<void> {
  const [newest] = await tx.db
    .select({ id: sql<number | null>`max(${announcements.id})` })
    .from(announcements)
    .where(readable);
  const readId = Number(newest?.id ?? 0);
  await tx.db
    .insert(unreadCounters)
    .values({ userId, announcementsReadId: readId })
    .onConflictDoUpdate({ target: unreadCounters.userId, set: { announcementsReadId: readId } });
  tx.invalidate(unreadTag(userId));
}

const pageSize = 20;

/** Announcements newest first in the reader's language, 20 a page (`cursor`: the last one's id). */
export async function listAnnouncements(
  db: Database,
  viewer: Viewer,
  locale: Locale,
  cursor?: string,
): Promise<{ items: Announcement[]; nextCursor: string | null }> {
  const before = cursor && /^\d{1,18}$/.test(cursor) ? Number(cursor) : null;
  const [counters] = await db
    .select({ readId: unreadCounters.announcementsReadId })
    .from(unreadCounters)
    .where(eq(unreadCounters.userId, viewer.id));
  const readId = counters?.readId ?? 0;
  const rows = await db
    .select({
      announcement: announcements,
      author: { username: users.username, nickname: users.nickname, avatar: users.avatarSmall },
    })
    .from(announcements)
    .leftJoin(users, eq(users.id, announcements.authorId))
    .where(before === null ? readable : and(readable, lt(announcements.id, before)))
    .orderBy(desc(announcements.id))
    .limit(pageSize + 1);
  const zh = locale === "zh-CN";
  const items = rows.slice(0, pageSize).map(({ announcement, author }) => ({
    id: announcement.id,
    title: zh ? announcement.titleZh : announcement.titleEn,
    body: zh ? announcement.bodyZh : announcement.bodyEn,
    author: author ? { ...author, avatar: author.avatar ?? defaultAvatar } : null,
    createdAt: announcement.announcedAt ?? announcement.createdAt,
    unread: announcement.id > readId,
  }));
  return { items, nextCursor: rows.length > pageSize ? String(items.at(-1)!.id) : null };
}
