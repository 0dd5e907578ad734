import { and, desc, eq, ilike, inArray, lt, or, sql } from "drizzle-orm";
import type { Executor } from "../../server/db/client.ts";
import { circles, favoriteFolders, favorites, moderationCases, subjectCounts } from "../../server/db/schema/index.ts";
import { AppError } from "../../common/app-error.ts";
import { inTransaction, type ServiceOptions, type Transaction } from "../../server/lib/transactions.ts";
import type { Viewer } from "../accounts/viewer.ts";
import { emit } from "../events/bus.ts";
import { bumpSubjectCounter } from "../subjects/counters.ts";
import { acceptsInteraction, loadSubject, type LoadedSubject } from "../subjects/registry.ts";
import { isSubjectType, type SubjectType } from "../subjects/types.ts";
import { canReact } from "../reactions/policy.ts";
import { viewerReactionsTag } from "../reactions/viewer-state.ts";
import { countsTag } from "../../server/lib/cache-tags.ts";

export const maxFolders = 50;
const pageSize = 20;

export interface FolderRow {
  id: number;
  name: string | null;
  isDefault: boolean;
  isPublic: boolean;
  count: number;
}

export interface FavoriteState {
  favorited: boolean;
  favoriteCount: number;
  folderId: number | null;
}

/** The user's default folder, made on first use (the partial unique index keeps it one, even when two requests make it at once). */
export async function defaultFolderId(tx: Transaction, userId: number): Promise<number> {
  const find = async () =>
    (
      await tx.db
        .select({ id: favoriteFolders.id })
        .from(favoriteFolders)
        .where(and(eq(favoriteFolders.userId, userId), eq(favoriteFolders.isDefault, true)))
    )[0]?.id;
  const existing = await find();
  if (existing) return existing;
  await tx.db.insert(favoriteFolders).values({ userId, isDefault: true, name: null }).onConflictDoNothing();
  const made = await find();
  if (!made) throw new Error("default favourites folder missing");
  return made;
}

async function ownFolder(db: Executor, userId: number, folderId: number): Promise<{ id: number; isDefault: boolean }> {
  const [folder] = await db
    .select({ id: favoriteFolders.id, isDefault: favoriteFolders.isDefault })
    .from(favoriteFolders)
    .where(and(eq(favoriteFolders.id, folderId), eq(favoriteFolders.userId, userId)));
  // Another user's folder answers like an unknown one.
  if (!folder) throw new AppError("not_found");
  return folder;
}

async function favoriteCountOf(db: Executor, subject: { type: string; id: number }): Promise<number> {
  const [row] = await db
    .select({ count: subjectCounts.favoriteCount })
    .from(subjectCounts)
    .where(and(eq(subjectCounts.subjectType, subject.type), eq(subjectCounts.subjectId, subject.id)));
  return row?.count ?? 0;
}

async function loadForFavorite(db: Executor, viewer: Viewer, type: string, id: number): Promise<LoadedSubject> {
  if (!acceptsInteraction(type, "favorites")) throw new AppError("not_found");
  const subject = await loadSubject(db, viewer, type, id);
  // Whoever may react may keep it: signed in and allowed to read it.
  if (!canReact(viewer, subject)) throw new AppError("forbidden");
  return subject;
}

/**
 * Keeps a subject in one of the viewer's folders (the default one when none is named), with an
 * optional note. Favouriting again moves it or changes the note; only the first one counts and
 * tells the author. Errors: `not_found` (subject or folder), `forbidden`.
 */
export async function favorite(
  options: ServiceOptions,
  viewer: Viewer,
  type: string,
  id: number,
  input: { folder_id?: number; note?: string },
): Promise<FavoriteState> {
  return inTransaction(options, async (tx) => {
    const subject = await loadForFavorite(tx.db, viewer, type, id);
    const folderId = input.folder_id ? (await ownFolder(tx.db, viewer.id, input.folder_id)).id : await defaultFolderId(tx, viewer.id);
    const [inserted] = await tx.db
      .insert(favorites)
      .values({
        userId: viewer.id,
        subjectType: subject.type,
        subjectId: subject.id,
        folderId,
        title: subject.title,
        note: input.note ?? "",
      })
      .onConflictDoNothing()
      .returning({ folderId: favorites.folderId });
    if (inserted) {
      await bumpSubjectCounter(tx, subject, "favoriteCount", 1);
      await emit(tx, {
        verb: "favorite.added",
        actorId: viewer.id,
        subjectType: subject.type,
        subjectId: subject.id,
        data: { folderId },
        recipientIds: subject.authorId !== null ? [subject.authorId] : [],
      });
      tx.invalidate(...subject.tags.counts, viewerReactionsTag(viewer.id));
    } else {
      const changes: { folderId?: number; note?: string } = {};
      if (input.folder_id) changes.folderId = folderId;
      if (input.note !== undefined) changes.note = input.note;
      if (Object.keys(changes).length > 0) {
        await tx.db
          .update(favorites)
          .set(changes)
          .where(and(eq(favorites.userId, viewer.id), eq(favorites.subjectType, subject.type), eq(favorites.subjectId, subject.id)));
      }
    }
    const [mine] = await tx.db
      .select({ folderId: favorites.folderId })
      .from(favorites)
      .where(and(eq(favorites.userId, viewer.id), eq(favorites.subjectType, subject.type), eq(favorites.subjectId, subject.id)));
    return { favorited: true, favoriteCount: await favoriteCountOf(tx.db, subject), folderId: mine?.folderId ?? folderId };
  });
}

/** Takes a subject out of the viewer's favourites (a no-op when it is not there). */
export async function unfavorite(options: ServiceOptions, viewer: Viewer, type: string, id: number): Promise<FavoriteState> {
  return inTransaction(options, async (tx) => {
    const subject = await loadForFavorite(tx.db, viewer, type, id);
    const [removed] = await tx.db
      .delete(favorites)
      .where(and(eq(favorites.userId, viewer.id), eq(favorites.subjectType, subject.type), eq(favorites.subjectId, subject.id)))
      .returning({ folderId: favorites.folderId });
    if (removed) {
      await bumpSubjectCounter(tx, subject, "favoriteCount", -1);
      await emit(tx, { verb: "favorite.removed", actorId: viewer.id, subjectType: subject.type, subjectId: subject.id, data: {} });
      tx.invalidate(...subject.tags.counts, viewerReactionsTag(viewer.id));
    }
    return { favorited: false, favoriteCount: await favoriteCountOf(tx.db, subject), folderId: null };
  });
}

/**
 * Removes a favourite by its key without loading the subject (from the favourites page: the
 * subject may since have become unreadable or gone, and the user must still be able to drop it).
 */
export async function removeFavoriteEntry(options: ServiceOptions, viewer: Viewer, type: string, id: number): Promise<void> {
  if (!isSubjectType(type)) throw new AppError("not_found");
  await inTransaction(options, async (tx) => {
    const [removed] = await tx.db
      .delete(favorites)
      .where(and(eq(favorites.userId, viewer.id), eq(favorites.subjectType, type), eq(favorites.subjectId, id)))
      .returning({ folderId: favorites.folderId });
    if (!removed) return;
    const [counts] = await tx.db
      .select({ authorId: subjectCounts.authorId })
      .from(subjectCounts)
      .where(and(eq(subjectCounts.subjectType, type), eq(subjectCounts.subjectId, id)));
    await bumpSubjectCounter(tx, { type, id, authorId: counts?.authorId ?? null }, "favoriteCount", -1);
    await emit(tx, { verb: "favorite.removed", actorId: viewer.id, subjectType: type, subjectId: id, data: {} });
    tx.invalidate(countsTag(type, id), viewerReactionsTag(viewer.id));
  });
}

/** Moves a favourite to another of the viewer's folders and/or changes its note. */
export async function updateFavorite(
  options: ServiceOptions,
  viewer: Viewer,
  type: string,
  id: number,
  input: { folder_id?: number; note?: string },
): Promise<void> {
  if (!isSubjectType(type)) throw new AppError("not_found");
  await inTransaction(options, async (tx) => {
    const changes: { folderId?: number; note?: string } = {};
    if (input.folder_id) changes.folderId = (await ownFolder(tx.db, viewer.id, input.folder_id)).id;
    if (input.note !== undefined) changes.note = input.note;
    if (Object.keys(changes).length === 0) return;
    const [updated] = await tx.db
      .update(favorites)
      .set(changes)
      .where(and(eq(favorites.userId, viewer.id), eq(favorites.subjectType, type), eq(favorites.subjectId, id)))
      .returning({ folderId: favorites.folderId });
    if (!updated) throw new AppError("not_found");
  });
}

/** The viewer's folders, default first, with their item counts. */
export async function listFolders(db: Executor, userId: number, onlyPublic = false): Promise<FolderRow[]> {
  const rows = await db
    .select({
      id: favoriteFolders.id,
      name: favoriteFolders.name,
      isDefault: favoriteFolders.isDefault,
      isPublic: favoriteFolders.isPublic,
      count: sql<number>`(select count(*) from ${favorites} f where f.folder_id = ${favoriteFolders.id})::int`,
    })
    .from(favoriteFolders)
    .where(and(eq(favoriteFolders.userId, userId), onlyPublic ? eq(favoriteFolders.isPublic, true) : undefined))
    .orderBy(desc(favoriteFolders.isDefault), favoriteFolders.createdAt, favoriteFolders.id);
  return rows;
}

/** A new folder (at most `maxFolders`). Errors: `too_many_folders`. */
export async function createFolder(
  options: ServiceOptions,
  viewer: Viewer,
  input: { name: string; is_public?: boolean },
): Promise<FolderRow> {
  return inTransaction(options, async (tx) => {
    await defaultFolderId(tx, viewer.id);
    // Serializes one user's folder creations, so the limit holds under concurrent requests.
    await tx.db.execute(sql`select pg_advisory_xact_lock(hashtext('favorite_folders'), ${viewer.id})`);
    const [{ count }] = (await tx.db
      .select({ count: sql<number>`count(*)::int` })
      .from(favoriteFolders)
      .where(eq(favoriteFolders.userId, viewer.id))) as [{ count: number }];
    if (count >= maxFolders) throw new AppError("too_many_folders");
    const [made] = await tx.db
      .insert(favoriteFolders)
      .values({ userId: viewer.id, name: input.name, isPublic: input.is_public ?? false })
      .returning();
    return { id: made!.id, name: made!.name, isDefault: false, isPublic: made!.isPublic, count: 0 };
  });
}

/** Renames a folder or makes it public or private (the default folder keeps its name). */
export async function updateFolder(
  options: ServiceOptions,
  viewer: Viewer,
  folderId: number,
  input: { name?: string; is_public?: boolean },
): Promise<void> {
  await inTransaction(options, async (tx) => {
    const folder = await ownFolder(tx.db, viewer.id, folderId);
    const changes: { name?: string; isPublic?: boolean } = {};
    if (input.name !== undefined) {
      if (folder.isDefault) throw new AppError("default_folder_fixed");
      changes.name = input.name;
    }
    if (input.is_public !== undefined) changes.isPublic = input.is_public;
    if (Object.keys(changes).length > 0) await tx.db.update(favoriteFolders).set(changes).where(eq(favoriteFolders.id, folder.id));
  });
}

/** Deletes a folder; its favourites move to the default folder, in the same transaction. Errors: `default_folder_fixed`. */
export async function deleteFolder(options: ServiceOptions, viewer: Viewer, folderId: number): Promise<{ moved: number }> {
  return inTransaction(options, async (tx) => {
    const folder = await ownFolder(tx.db, viewer.id, folderId);
    if (folder.isDefault) throw new AppError("default_folder_fixed");
    const target = await defaultFolderId(tx, viewer.id);
    const moved = await tx.db
      .update(favorites)
      .set({ folderId: target })
      .where(eq(favorites.folderId, folder.id))
      .returning({ id: favorites.subjectId });
    await tx.db.delete(favoriteFolders).where(eq(favoriteFolders.id, folder.id));
    return { moved: moved.length };
  });
}

export interface FavoriteItem {
  type: SubjectType;
  id: number;
  title: string;
  path: string;
  circle: { id: number; name: string; nameEn: string | null } | null;
  folderId: number;
  note: string;
  createdAt: Date;
  /** False when the viewer may no longer read it (deleted content leaves the favourites with it). */
  readable: boolean;
  /** Hidden by moderation: its readers see that, and no longer its title. */
  hidden: boolean;
}

export interface FavoritePage {
  items: FavoriteItem[];
  nextCursor: string | null;
}

/** `<created_at ms>.<type>.<id>`: a keyset position, newest first. */
function parseCursor(cursor: string | undefined): { at: Date; type: string; id: number } | null {
  const match = cursor ? /^(\d{1,15})\.([a-z]{1,16})\.(\d{1,10})$/.exec(cursor) : null;
  return match ? { at: new Date(Number(match[1])), type: match[2]!, id: Number(match[3]) } : null;
}

/**
 * The viewer's favourites, newest first, 20 a page: in one folder or all, matching `q` in the saved
 * title or the note. Each shows the subject's current title and path as the viewer may read it.
 */
export async function listFavorites(
  db: Executor,
  viewer: Viewer,
  query: { folder_id?: number; q?: string; cursor?: string },
): Promise<FavoritePage> {
  if (query.folder_id) await ownFolder(db, viewer.id, query.folder_id);
  const after = parseCursor(query.cursor);
  const pattern = query.q ? `%${query.q.replace(/[\\%_]/g, (character) => `\\${character}`)}%` : null;
  const rows = await db
    .select()
    .from(favorites)
    .where(
      and(
        eq(favorites.userId, viewer.id),
        query.folder_id ? eq(favorites.folderId, query.folder_id) : undefined,
        pattern ? or(ilike(favorites.title, pattern), ilike(favorites.note, pattern)) : undefined,
        after
          ? or(
              lt(favorites.createdAt, after.at),
              and(
                eq(favorites.createdAt, after.at),
                sql`(${favorites.subjectType}, ${favorites.subjectId}) < (${after.type}, ${after.id})`,
              ),
            )
          : undefined,
      ),
    )
    .orderBy(desc(favorites.createdAt), desc(favorites.subjectType), desc(favorites.subjectId))
    .limit(pageSize + 1);
  const page = rows.slice(0, pageSize);
  const items: FavoriteItem[] = [];
  for (const row of page) {
    let subject: LoadedSubject | null = null;
    try {
      subject = await loadSubject(db, viewer, row.subjectType, row.subjectId);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
    }
    items.push({
      type: row.subjectType as SubjectType,
      id: row.subjectId,
      title: subject?.title ?? row.title,
      path: subject?.path ?? "",
      circle: null,
      folderId: row.folderId,
      note: row.note,
      createdAt: row.createdAt,
      readable: subject !== null,
      hidden: Boolean(subject?.hiddenAt),
    });
    if (subject?.access) items[items.length - 1]!.circle = { id: subject.access.circle.id, name: "", nameEn: null };
  }
  await markHidden(db, items);
  const circleIds = [...new Set(items.flatMap((item) => (item.circle ? [item.circle.id] : [])))];
  if (circleIds.length > 0) {
    const names = await db
      .select({ id: circles.id, name: circles.nameZh, nameEn: circles.nameEn })
      .from(circles)
      .where(inArray(circles.id, circleIds));
    const byId = new Map(names.map((row) => [row.id, row]));
    for (const item of items) if (item.circle) item.circle = byId.get(item.circle.id) ?? null;
  }
  const last = page[page.length - 1];
  return {
    items,
    nextCursor: rows.length > pageSize && last ? `${last.createdAt.getTime()}.${last.subjectType}.${last.subjectId}` : null,
  };
}

/**
 * Favourites the viewer can no longer read because moderation hid them (a case says so) are
 * marked hidden and lose the title saved with them: a hidden writing's title must not live on in
 * its readers' favourites. (Its author still reads it, title and all, and sees it marked hidden.)
 */
async function markHidden(db: Executor, items: FavoriteItem[]): Promise<void> {
  const unreadable = items.filter((item) => !item.readable);
  if (unreadable.length === 0) return;
  const hidden = await db
    .selectDistinct({ type: moderationCases.subjectType, id: moderationCases.subjectId })
    .from(moderationCases)
    .where(
      and(
        eq(moderationCases.hidden, true),
        or(...unreadable.map((item) => and(eq(moderationCases.subjectType, item.type), eq(moderationCases.subjectId, item.id)))),
      ),
    );
  const keys = new Set(hidden.map((row) => `${row.type}:${row.id}`));
  for (const item of unreadable)
    if (keys.has(`${item.type}:${item.id}`)) {
      item.hidden = true;
      item.title = "";
    }
}

/** Whether the viewer keeps this subject, and in which folder. */
export async function viewerFavorite(db: Executor, userId: number, type: string, id: number): Promise<number | null> {
  const [row] = await db
    .select({ folderId: favorites.folderId })
    .from(favorites)
    .where(and(eq(favorites.userId, userId), eq(favorites.subjectType, type), eq(favorites.subjectId, id)));
  return row?.folderId ?? null;
}
