import { and, desc, eq, gt, inArray, isNull, lt, ne, or, sql } from "drizzle-orm";
import type { Database, Executor } from "../../server/db/client.ts";
import { notifications, users } from "../../server/db/schema/index.ts";
import type { Transaction } from "../../server/lib/transactions.ts";
import { AppError } from "../../common/app-error.ts";
import type { Viewer } from "../accounts/viewer.ts";
import { defaultAvatar } from "../accounts/presenter.ts";
import { loadSubject, type LoadedSubject } from "../subjects/registry.ts";
import type { DomainEvent, EventVerb } from "../events/catalogue.ts";
import { unreadTag } from "./unread-memory.ts";
import { recipientsWhoMuted } from "./preferences.ts";

/**
 * Notifications: what a user is told, one row per recipient and event, written by the event
 * handlers in the transaction of the action (features/messages/handlers.ts). Lists check again,
 * when they are read, that the recipient may still read what each one is about: a subject later
 * hidden, deleted or made private drops out.
 */

/** The kinds of notification as stored; the message centre's pages and counters group them. */
export const notificationCategories = ["answers", "reply", "comment", "at", "like", "favorite", "follow", "system"] as const;
export type NotificationCategory = (typeof notificationCategories)[number];

/** Likes and favourites of one subject are shown as one line ("Li Lei and 9 others liked…"). */
const grouped: readonly NotificationCategory[] = ["like", "favorite"];

/**
 * Tells each of the event's recipients, once (a second delivery of the same event is a no-op).
 * The event must have been emitted (it carries its id); the actor is never among the recipients.
 */
export async function notify(
  tx: Transaction,
  event: DomainEvent<EventVerb>,
  category: NotificationCategory,
  about: { type: string; id: number } = { type: event.subjectType!, id: event.subjectId },
  recipientIds: readonly number[] = event.recipientIds ?? [],
): Promise<void> {
  const candidates = recipientIds.filter((id) => id !== event.actorId);
  if (candidates.length === 0 || event.id === undefined) return;
  // A category the recipient muted creates nothing for them.
  const muted = await recipientsWhoMuted(tx.db, category, candidates);
  const recipients = candidates.filter((id) => !muted.has(id));
  if (recipients.length === 0) return;
  await tx.db
    .insert(notifications)
    .values(
      recipients.map((recipientId) => ({
        recipientId,
        category,
        verb: event.verb,
        eventId: event.id!,
        actorId: event.actorId,
        subjectType: about.type,
        subjectId: about.id,
        data: event.data as Record<string, unknown>,
      })),
    )
    .onConflictDoNothing();
  for (const recipientId of recipients) tx.invalidate(notificationsTag(recipientId));
}

/**
 * Tells the users a comment @-mentions, except those it already told as its subject's author or
 * the replied user: for them the comment is one notification (in replies), marked as a mention,
 * so one comment never counts twice.
 */
export async function notifyMention(tx: Transaction, event: DomainEvent<"comment.mentioned">): Promise<void> {
  const recipientIds = event.recipientIds ?? [];
  if (recipientIds.length === 0) return;
  const told = await tx.db
    .update(notifications)
    .set({ data: sql`${notifications.data} || '{"mentioned": true}'::jsonb` })
    .where(
      and(
        eq(notifications.subjectType, "comment"),
        eq(notifications.subjectId, event.subjectId),
        inArray(notifications.category, ["comment", "reply"]),
        inArray(notifications.recipientId, [...recipientIds]),
      ),
    )
    .returning({ recipientId: notifications.recipientId });
  const already = new Set(told.map((row) => row.recipientId));
  for (const recipientId of already) tx.invalidate(notificationsTag(recipientId));
  await notify(
    tx,
    event,
    "at",
    undefined,
    recipientIds.filter((id) => !already.has(id)),
  );
}

/** Takes back what an undone act told (a like taken back, an unfollow): the actor's notifications of that category about the subject. */
export async function withdraw(
  tx: Transaction,
  actorId: number,
  category: NotificationCategory,
  about: { type: string; id: number },
): Promise<void> {
  const removed = await tx.db
    .delete(notifications)
    .where(
      and(
        eq(notifications.actorId, actorId),
        eq(notifications.category, category),
        eq(notifications.subjectType, about.type),
        eq(notifications.subjectId, about.id),
      ),
    )
    .returning({ recipientId: notifications.recipientId });
  for (const { recipientId } of removed) tx.invalidate(notificationsTag(recipientId));
}

/** What deleting subjects takes with it: every notification about them. */
export async function removeNotificationsAbout(tx: Transaction, type: string, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  // Comments on the subjects go with them: their notifications name the subject in their data.
  const removed = await tx.db
    .delete(notifications)
    .where(
      or(
        // A moderation decision stays: it tells its reporters and author what became of the subject.
        and(eq(notifications.subjectType, type), inArray(notifications.subjectId, ids), ne(notifications.verb, "moderation.decided")),
        and(
          eq(notifications.subjectType, "comment"),
          sql`${notifications.data}->>'subjectType' = ${type}`,
          sql`(${notifications.data}->>'subjectId')::int in (${sql.join(
            ids.map((id) => sql`${id}`),
            sql`, `,
          )})`,
        ),
      ),
    )
    .returning({ recipientId: notifications.recipientId });
  for (const recipientId of new Set(removed.map((row) => row.recipientId))) tx.invalidate(notificationsTag(recipientId));
}

/** The tag of a user's notifications and unread counters (their remembered counts). */
const notificationsTag = unreadTag;

/** Marks a user's notifications of these categories read. */
export async function markNotificationsRead(tx: Transaction, userId: number, categories: readonly NotificationCategory[]): Promise<void> {
  if (categories.length === 0) return;
  await tx.db
    .update(notifications)
    .set({ readAt: sql`now()` })
    .where(and(eq(notifications.recipientId, userId), inArray(notifications.category, [...categories]), isNull(notifications.readAt)));
  tx.invalidate(notificationsTag(userId));
}

export interface NotificationItem {
  /** The newest notification of the line (a group's latest). */
  id: number;
  category: NotificationCategory;
  verb: string;
  /** Who did it, newest first (up to three for a group). */
  actors: { username: string; nickname: string; avatar: string }[];
  /** How many did it (a group's size; 1 otherwise). */
  count: number;
  /** What it is about; `path` null when the viewer can no longer open it (a decision notice about hidden or deleted content). */
  subject: { type: string; id: number; title: string; path: string | null };
  /** What the subject belongs to when it is a comment (the article it comments on), so the line names the content, not only the comment. */
  context?: { type: string; id: number; title: string; path: string };
  /** A comment or reply that also @-mentions the recipient (told once, in its own list, marked). */
  mentioned?: boolean;
  data: Record<string, unknown>;
  /** A moderation decision: what was decided and whether the viewer reported it or wrote it. */
  decision?: { action: string; role: "reporter" | "author"; note: string };
  createdAt: Date;
  unread: boolean;
}

export interface NotificationPage {
  items: NotificationItem[];
  nextCursor: string | null;
}

const pageSize = 20;

interface LineRow {
  id: number;
  category: string;
  verb: string;
  subjectType: string;
  subjectId: number;
  data: Record<string, unknown>;
  createdAt: Date;
  unread: boolean;
  count: number;
  actorIds: (number | null)[];
}

/**
 * One page of a user's notifications in these categories, newest first (a keyset cursor: the last
 * line's id). Likes and favourites of one subject are one line. Lines about something the user may
 * no longer read are left out.
 */
export async function listNotifications(
  db: Database,
  viewer: Viewer,
  categories: readonly NotificationCategory[],
  cursor?: string,
): Promise<NotificationPage> {
  const before = cursor && /^\d{1,18}$/.test(cursor) ? Number(cursor) : null;
  const single = categories.filter((category) => !grouped.includes(category));
  const groups = categories.filter((category) => grouped.includes(category));
  const lines: LineRow[] = [];
  if (single.length > 0) {
    const rows = await db
      .select({
        id: notifications.id,
        category: notifications.category,
        verb: notifications.verb,
        subjectType: notifications.subjectType,
        subjectId: notifications.subjectId,
        data: notifications.data,
        createdAt: notifications.createdAt,
        readAt: notifications.readAt,
        actorId: notifications.actorId,
      })
      .from(notifications)
      .where(
        and(
          eq(notifications.recipientId, viewer.id),
          inArray(notifications.category, single),
          before === null ? undefined : lt(notifications.id, before),
        ),
      )
      .orderBy(desc(notifications.id))
      .limit(pageSize + 1);
    for (const row of rows) lines.push({ ...row, unread: row.readAt === null, count: 1, actorIds: [row.actorId] });
  }
  if (groups.length > 0) {
    interface GroupRow {
      id: string | number;
      category: string;
      verb: string;
      subject_type: string;
      subject_id: number;
      created_at: string | Date;
      unread: boolean;
      count: string | number;
      actor_ids: (number | null)[];
    }
    const result = await db.execute(sql`
      select max(id) as id, category, min(verb) as verb, subject_type, subject_id, max(created_at) as created_at,
             bool_or(read_at is null) as unread, count(*) as count,
             (array_agg(actor_id order by id desc))[1:3] as actor_ids
      from notifications
      where recipient_id = ${viewer.id} and category in (${sql.join(
        groups.map((category) => sql`${category}`),
        sql`, `,
      )})
      group by category, subject_type, subject_id
      ${before === null ? sql`` : sql`having max(id) < ${before}`}
      order by max(id) desc
      limit ${pageSize + 1}`);
    for (const row of (result as unknown as { rows: GroupRow[] }).rows) {
      lines.push({
        id: Number(row.id),
        category: row.category,
        verb: row.verb,
        subjectType: row.subject_type,
        subjectId: row.subject_id,
        data: {},
        createdAt: new Date(row.created_at),
        unread: row.unread,
        count: Number(row.count),
        actorIds: row.actor_ids,
      });
    }
  }
  lines.sort((a, b) => b.id - a.id);
  const page = lines.slice(0, pageSize);
  const nextCursor = lines.length > pageSize ? String(page.at(-1)!.id) : null;

  return { items: await toItems(db, viewer, page), nextCursor };
}

/** Lines as the viewer sees them: actors named, subjects loaded for the viewer (unreadable ones left out). */
async function toItems(db: Executor, viewer: Viewer, page: LineRow[]): Promise<NotificationItem[]> {
  const actorIds = [...new Set(page.flatMap((line) => line.actorIds).filter((id): id is number => id !== null))];
  const actors = new Map(
    actorIds.length === 0
      ? []
      : (
          await db
            .select({ id: users.id, username: users.username, nickname: users.nickname, avatar: users.avatar })
            .from(users)
            .where(inArray(users.id, actorIds))
        ).map((user) => [user.id, { username: user.username, nickname: user.nickname, avatar: user.avatar ?? defaultAvatar }]),
  );
  const subjects = new Map<string, LoadedSubject | null>();
  const items: NotificationItem[] = [];
  for (const line of page) {
    const key = `${line.subjectType}:${line.subjectId}`;
    if (!subjects.has(key)) subjects.set(key, await readableSubject(db, viewer, line.subjectType, line.subjectId));
    const subject = subjects.get(key);
    const decision = line.verb === "moderation.decided" ? decisionOf(line.data, viewer.id) : undefined;
    const parentKey = subject?.parent ? `${subject.parent.type}:${subject.parent.id}` : null;
    if (parentKey && !subjects.has(parentKey))
      subjects.set(parentKey, await readableSubject(db, viewer, subject!.parent!.type, subject!.parent!.id));
    const context = parentKey ? subjects.get(parentKey) : null;
    // A decision stays readable when what it decided on no longer is (hidden, deleted): titled from the notice, without a link.
    if (!subject && !decision) continue;
    items.push({
      id: line.id,
      category: line.category as NotificationCategory,
      verb: line.verb,
      actors: line.actorIds.flatMap((id) => (id !== null && actors.has(id) ? [actors.get(id)!] : [])),
      count: line.count,
      subject: subject
        ? { type: subject.type, id: subject.id, title: subject.title, path: subject.path }
        : { type: line.subjectType, id: line.subjectId, title: typeof line.data.title === "string" ? line.data.title : "", path: null },
      ...(context ? { context: { type: context.type, id: context.id, title: context.title, path: context.path } } : {}),
      ...(line.data.mentioned === true ? { mentioned: true } : {}),
      ...(decision ? { decision } : {}),
      data: line.data,
      createdAt: line.createdAt,
      unread: line.unread,
    });
  }
  return items;
}

/** The user's notifications newer than `afterId`, oldest first, one line each (the live stream's pushes and its replay after `Last-Event-ID`). */
export async function notificationsAfter(
  db: Executor,
  viewer: Viewer,
  afterId: number,
  limit = 50,
): Promise<{ items: NotificationItem[]; lastId: number }> {
  const rows = await db
    .select({
      id: notifications.id,
      category: notifications.category,
      verb: notifications.verb,
      subjectType: notifications.subjectType,
      subjectId: notifications.subjectId,
      data: notifications.data,
      createdAt: notifications.createdAt,
      readAt: notifications.readAt,
      actorId: notifications.actorId,
    })
    .from(notifications)
    .where(and(eq(notifications.recipientId, viewer.id), gt(notifications.id, afterId)))
    .orderBy(notifications.id)
    .limit(limit);
  const items = await toItems(
    db,
    viewer,
    rows.map((row) => ({ ...row, unread: row.readAt === null, count: 1, actorIds: [row.actorId] })),
  );
  // Past every row looked at, also those left out as unreadable: they are not asked for again.
  return { items, lastId: rows.at(-1)?.id ?? afterId };
}

function decisionOf(data: Record<string, unknown>, viewerId: number): NotificationItem["decision"] {
  return {
    action: typeof data.action === "string" ? data.action : "dismiss",
    role: data.authorId === viewerId ? "author" : "reporter",
    note: typeof data.note === "string" ? data.note : "",
  };
}

async function readableSubject(db: Executor, viewer: Viewer, type: string, id: number): Promise<LoadedSubject | null> {
  try {
    return await loadSubject(db, viewer, type, id);
  } catch (error) {
    if (error instanceof AppError) return null;
    throw error;
  }
}

/** Deletes one of the user's notifications (a grouped line: every notification of the group). */
export async function deleteNotification(tx: Transaction, viewer: Viewer, id: number): Promise<void> {
  const [row] = await tx.db
    .select({ category: notifications.category, subjectType: notifications.subjectType, subjectId: notifications.subjectId })
    .from(notifications)
    .where(and(eq(notifications.id, id), eq(notifications.recipientId, viewer.id)));
  if (!row) throw new AppError("not_found");
  const where = grouped.includes(row.category as NotificationCategory)
    ? and(
        eq(notifications.recipientId, viewer.id),
        eq(notifications.category, row.category),
        eq(notifications.subjectType, row.subjectType),
        eq(notifications.subjectId, row.subjectId),
      )
    : eq(notifications.id, id);
  await tx.db.delete(notifications).where(where);
  tx.invalidate(notificationsTag(viewer.id));
}

/** Opening a notification's target marks what it is about read for this user. */
export async function markSubjectRead(tx: Transaction, userId: number, subject: { type: string; id: number }): Promise<void> {
  await tx.db
    .update(notifications)
    .set({ readAt: sql`now()` })
    .where(
      and(
        eq(notifications.recipientId, userId),
        eq(notifications.subjectType, subject.type),
        eq(notifications.subjectId, subject.id),
        isNull(notifications.readAt),
      ),
    );
  tx.invalidate(notificationsTag(userId));
}

/**
 * Opens a notification: marks its line read (a group: all of it) and answers where it leads, the
 * subject's page, or the follower's profile for a new follower. `not_found` for another user's.
 */
export async function openNotification(tx: Transaction, viewer: Viewer, id: number): Promise<string> {
  const [row] = await tx.db
    .select({
      category: notifications.category,
      subjectType: notifications.subjectType,
      subjectId: notifications.subjectId,
      verb: notifications.verb,
      actor: users.username,
    })
    .from(notifications)
    .leftJoin(users, eq(users.id, notifications.actorId))
    .where(and(eq(notifications.id, id), eq(notifications.recipientId, viewer.id)));
  if (!row) throw new AppError("not_found");
  await tx.db
    .update(notifications)
    .set({ readAt: sql`now()` })
    .where(
      and(
        eq(notifications.recipientId, viewer.id),
        eq(notifications.category, row.category),
        eq(notifications.subjectType, row.subjectType),
        eq(notifications.subjectId, row.subjectId),
        isNull(notifications.readAt),
      ),
    );
  tx.invalidate(notificationsTag(viewer.id));
  if (row.category === "follow" && row.actor) return `/profile/${row.actor}`;
  // A decision about what the viewer can no longer open leads back to the system notices.
  if (row.verb === "moderation.decided") {
    const decided = await readableSubject(tx.db, viewer, row.subjectType, row.subjectId);
    return decided?.path ?? "/messages/system_notice";
  }
  const subject = await readableSubject(tx.db, viewer, row.subjectType, row.subjectId);
  if (!subject) throw new AppError("not_found");
  return subject.path;
}

/** The id of the user's newest notification (0 without any): where a new stream starts. */
export async function newestNotificationId(db: Executor, userId: number): Promise<number> {
  const [row] = await db
    .select({ id: sql<number | null>`max(${notifications.id})` })
    .from(notifications)
    .where(eq(notifications.recipientId, userId));
  return Number(row?.id ?? 0);
}
