import { and, desc, eq, inArray, ne, notInArray, sql } from "drizzle-orm";
import type { Executor } from "../../server/db/client.ts";
import { attachments, encyclopediaEntries, entryRevisionContents, entryRevisions } from "../../server/db/schema/index.ts";
import { AppError } from "../../common/app-error.ts";
import { authorize } from "../../common/policy.ts";
import { inTransaction, type ServiceOptions, type Transaction } from "../../server/lib/transactions.ts";
import { circleTag, contentTag, countsTag } from "../../server/lib/cache-tags.ts";
import type { Viewer } from "../accounts/viewer.ts";
import { loadCircleAccess } from "../circles/access.server.ts";
import { canViewCircle } from "../circles/policy.ts";
import { emit } from "../events/bus.ts";
import { deleteSubjectDependents } from "../subjects/registry.ts";
import { canModerate } from "../reports/visibility.ts";
import { can } from "./policy.ts";
import { entryPath } from "./paths.ts";
import { unknownLabels } from "./citations.ts";
import { renderEntryContent } from "./render.server.ts";
import { mergeSnapshots, snapshotHash, type EntrySnapshot } from "./revision-text.ts";
import type { CreateEntryInput, CreateVersionInput, EntryLanguage, UpdateEntryInput } from "./schema.ts";
import { entryTags, entryVersions, loadReadableEntry, versionIdOf, type EntryRow } from "./service.ts";

/*
 * Writing the encyclopedia: create, edit (three-way merge over a revision saved meanwhile),
 * revert, protect, delete. Every save is an immutable revision whose content is stored once by
 * its hash (`entry_revision_contents`); the entry row holds the current one and its rendered HTML.
 */

/** The snapshot an entry row shows now. */
export function snapshotOfRow(row: EntryRow): EntrySnapshot {
  return {
    name: row.name,
    aliases: row.aliases,
    disambiguation: row.disambiguation,
    parent_id: row.parentId,
    content: row.description,
    references: row.references,
    citation: row.citation,
    photos: row.photos.length > 0 ? row.photos : undefined,
  };
}

function normalizedSnapshot(snapshot: EntrySnapshot): EntrySnapshot {
  const aliases = [...new Map(snapshot.aliases.map((alias) => [alias.toLowerCase(), alias])).values()].filter(
    (alias) => alias.toLowerCase() !== snapshot.name.toLowerCase(),
  );
  // No photos is no `photos` key: the snapshots written before photos keep their hash.
  const { photos, ...rest } = snapshot;
  return { ...rest, aliases, disambiguation: snapshot.disambiguation || null, ...(photos && photos.length > 0 ? { photos } : {}) };
}

/** Every photo must be an uploaded JPG or PNG. */
async function checkPhotos(db: Executor, snapshot: EntrySnapshot): Promise<void> {
  const ids = [...new Set((snapshot.photos ?? []).map((photo) => photo.file_id))];
  if (ids.length === 0) return;
  const found = await db
    .select({ fileId: attachments.fileId })
    .from(attachments)
    .where(and(inArray(attachments.fileId, ids), inArray(attachments.contentType, ["image/jpeg", "image/png"])));
  if (found.length !== ids.length) throw new AppError("validation_failed", { fields: { photos: "validation:entry_photo_unknown" } });
}

/** Refuses a snapshot citing labels no reference has, naming them. */
function checkCitations(snapshot: EntrySnapshot): void {
  const unknown = unknownLabels(snapshot.content, snapshot.references);
  if (unknown.length > 0)
    throw new AppError("validation_failed", {
      fields: { content: "validation:citation_label_unknown" },
      params: { labels: unknown.join(", ") },
      details: { unknown_labels: unknown },
    });
}

/**
 * A name or alias another entry of the circle in the same language already uses needs a
 * disambiguation note (Baike's 义项), so readers can tell the senses apart.
 */
async function checkNames(db: Executor, circleId: number, language: EntryLanguage, entryId: number | null, snapshot: EntrySnapshot) {
  if (snapshot.disambiguation) return;
  const names = [snapshot.name, ...snapshot.aliases].map((name) => name.toLowerCase());
  const list = sql.join(
    names.map((name) => sql`${name}`),
    sql`, `,
  );
  const [clash] = await db
    .select({ id: encyclopediaEntries.id })
    .from(encyclopediaEntries)
    .where(
      and(
        eq(encyclopediaEntries.circleId, circleId),
        eq(encyclopediaEntries.language, language),
        entryId === null ? undefined : ne(encyclopediaEntries.id, entryId),
        sql`(lower(${encyclopediaEntries.name}) in (${list}) or exists (select 1 from unnest(${encyclopediaEntries.aliases}) a where lower(a) in (${list})))`,
      ),
    )
    .limit(1);
  if (clash) throw new AppError("validation_failed", { fields: { disambiguation: "validation:entry_disambiguation_required" } });
}

/** A parent must be an entry of the same circle, and never the entry itself or one of its descendants. */
async function checkParent(db: Executor, circleId: number, entryId: number | null, parentId: number | null) {
  if (parentId === null) return;
  const [parent] = await db
    .select({ circleId: encyclopediaEntries.circleId })
    .from(encyclopediaEntries)
    .where(eq(encyclopediaEntries.id, parentId))
    .limit(1);
  if (!parent || parent.circleId !== circleId)
    throw new AppError("validation_failed", { fields: { parent_id: "validation:entry_parent_invalid" } });
  if (entryId === null) return;
  // Walk up from the proposed parent: meeting the entry itself would close a cycle.
  const seen = new Set<number>();
  let current: number | null = parentId;
  while (current !== null && !seen.has(current) && current !== entryId) {
    seen.add(current);
    const [up] = await db
      .select({ parentId: encyclopediaEntries.parentId })
      .from(encyclopediaEntries)
      .where(eq(encyclopediaEntries.id, current))
      .limit(1);
    current = up?.parentId ?? null;
  }
  if (current === entryId) throw new AppError("validation_failed", { fields: { parent_id: "validation:entry_parent_cycle" } });
}

/**
 * Stores a revision of the entry (its content once per hash) and makes it the entry's current
 * state. Inside the caller's transaction.
 */
async function writeRevision(
  tx: Transaction,
  entry: Pick<EntryRow, "id" | "circleId" | "language" | "description">,
  snapshot: EntrySnapshot,
  html: string,
  details: { authorId: number; summary: string; revertOf: number | null; now: Date; first: boolean },
) {
  const hash = snapshotHash(snapshot);
  await tx.db.insert(entryRevisionContents).values({ hash, snapshot }).onConflictDoNothing();
  const [last] = await tx.db
    .select({ number: entryRevisions.number })
    .from(entryRevisions)
    .where(eq(entryRevisions.entryId, entry.id))
    .orderBy(desc(entryRevisions.number))
    .limit(1);
  const size = [...snapshot.content].length;
  const previous = details.first ? 0 : [...entry.description].length;
  const [revision] = await tx.db
    .insert(entryRevisions)
    .values({
      entryId: entry.id,
      number: (last?.number ?? 0) + 1,
      authorId: details.authorId,
      createdAt: details.now,
      summary: details.summary,
      contentHash: hash,
      size,
      sizeDelta: size - previous,
      language: entry.language,
      revertOf: details.revertOf,
    })
    .returning();
  await tx.db
    .update(encyclopediaEntries)
    .set({
      name: snapshot.name,
      aliases: snapshot.aliases,
      disambiguation: snapshot.disambiguation,
      parentId: snapshot.parent_id,
      description: snapshot.content,
      descriptionHtml: html,
      references: snapshot.references,
      citation: snapshot.citation,
      photos: snapshot.photos ?? [],
      revisionId: revision!.id,
      editCount: sql`${encyclopediaEntries.editCount} + 1`,
      updatedAt: details.now,
    })
    .where(eq(encyclopediaEntries.id, entry.id));
  await emit(tx, {
    actorId: details.authorId,
    verb: "entry.edited",
    subjectId: entry.id,
    data: { circleId: entry.circleId, revisionId: revision!.id, number: revision!.number, revertOf: details.revertOf },
  });
  return revision!;
}

/**
 * Tags of an entry's pages after a save: its own, its circle's, the entries it names as parent
 * (their child lists), and its group's (every language version's page carries the first
 * version's tag: their version links and "changed since" notices).
 */
function savedTags(row: Pick<EntryRow, "id" | "circleId" | "translationOf">, parents: (number | null)[]): string[] {
  return [
    ...entryTags(row),
    countsTag("entry", row.id),
    ...(row.translationOf === null ? [] : [contentTag("entry", row.translationOf)]),
    ...parents.flatMap((id) => (id === null ? [] : [contentTag("entry", id)])),
  ];
}

/**
 * Starts an entry in a circle (`write` in the circles policy) with its first revision. A parent
 * must be an entry of the same circle; a name already used needs a disambiguation note; every
 * cited label needs a reference. The description is rendered before the transaction opens.
 */
export async function createEntry(
  options: ServiceOptions,
  viewer: Viewer,
  circleId: number,
  input: CreateEntryInput,
  now: Date = new Date(),
): Promise<{ id: number; url: string; revisionId: number }> {
  const access = await loadCircleAccess(options.db, viewer, circleId);
  if (!access || !canViewCircle(access)) throw new AppError("not_found");
  authorize(viewer, can(viewer, "create", access));
  return insertEntry(options, viewer, { circleId, language: input.language, translationOf: null }, input, now);
}

/**
 * Adds the entry's version in another language (whoever may write in its circle and edit the
 * entry: a protected entry only its moderators; the version is protected too): one entry in
 * both languages, each version with its own history. Its parent is the parent's version in that
 * language when there is one, else the parent itself. A language the entry already has is refused.
 */
export async function addEntryVersion(
  options: ServiceOptions,
  viewer: Viewer,
  id: number,
  input: CreateVersionInput,
  now: Date = new Date(),
): Promise<{ id: number; url: string; revisionId: number }> {
  const { row, access } = await loadReadableEntry(options.db, viewer, id);
  // A protected entry is protected in every language: only its moderators add a version.
  authorize(viewer, can(viewer, "create", access) && can(viewer, "edit", access, row));
  const versions = await entryVersions(options.db, row);
  if (versions.some((version) => version.language === input.language))
    throw new AppError("validation_failed", { fields: { language: "validation:entry_version_exists" } });
  const first = versions[0]!;
  const [groupRow] = await options.db
    .select({ parentId: encyclopediaEntries.parentId })
    .from(encyclopediaEntries)
    .where(eq(encyclopediaEntries.id, first.id))
    .limit(1);
  let parentId = groupRow?.parentId ?? null;
  if (parentId !== null) parentId = await versionIdOf(options.db, parentId, input.language).catch(() => parentId);
  return insertEntry(
    options,
    viewer,
    { circleId: row.circleId, language: input.language, translationOf: first.id, protected: row.protected },
    { ...input, parent_id: parentId },
    now,
  );
}

async function insertEntry(
  options: ServiceOptions,
  viewer: Viewer,
  place: { circleId: number; language: EntryLanguage; translationOf: number | null; protected?: boolean },
  input: Omit<CreateEntryInput, "language">,
  now: Date,
): Promise<{ id: number; url: string; revisionId: number }> {
  const { circleId, language } = place;
  const snapshot = normalizedSnapshot({
    name: input.name,
    aliases: input.aliases,
    disambiguation: input.disambiguation,
    parent_id: input.parent_id,
    content: input.content,
    references: input.references,
    citation: input.citation,
    photos: input.photos,
  });
  checkCitations(snapshot);
  await checkPhotos(options.db, snapshot);
  const html = await renderEntryContent(snapshot, language);
  return inTransaction(options, async (tx) => {
    await checkParent(tx.db, circleId, null, snapshot.parent_id);
    await checkNames(tx.db, circleId, language, null, snapshot);
    if (place.translationOf !== null) {
      // Two writers adding the same language at once: the second waits here and is refused.
      await tx.db
        .select({ id: encyclopediaEntries.id })
        .from(encyclopediaEntries)
        .where(eq(encyclopediaEntries.id, place.translationOf))
        .for("update");
      const existing = await entryVersions(tx.db, { id: place.translationOf, translationOf: null });
      if (existing.some((version) => version.language === language))
        throw new AppError("validation_failed", { fields: { language: "validation:entry_version_exists" } });
    }
    const [row] = await tx.db
      .insert(encyclopediaEntries)
      .values({
        circleId,
        name: snapshot.name,
        aliases: snapshot.aliases,
        disambiguation: snapshot.disambiguation,
        parentId: snapshot.parent_id,
        description: snapshot.content,
        descriptionHtml: html,
        language,
        creatorId: viewer.id,
        createdAt: now,
        updatedAt: now,
        translationOf: place.translationOf,
        protected: place.protected ?? false,
        photos: snapshot.photos ?? [],
      })
      .returning();
    const entry = row!;
    await emit(tx, { actorId: viewer.id, verb: "entry.created", subjectId: entry.id, data: { circleId, name: entry.name } });
    const revision = await writeRevision(tx, entry, snapshot, html, {
      authorId: viewer.id,
      summary: input.summary,
      revertOf: null,
      now,
      first: true,
    });
    tx.invalidate(...savedTags(entry, [snapshot.parent_id]));
    return { id: entry.id, url: entryPath(entry), revisionId: revision.id };
  });
}

/** The snapshot of one of the entry's revisions, or `not_found`. */
export async function revisionSnapshot(
  db: Executor,
  entryId: number,
  revisionId: number,
): Promise<{ revision: typeof entryRevisions.$inferSelect; snapshot: EntrySnapshot }> {
  const [found] = await db
    .select({ revision: entryRevisions, snapshot: entryRevisionContents.snapshot })
    .from(entryRevisions)
    .innerJoin(entryRevisionContents, eq(entryRevisionContents.hash, entryRevisions.contentHash))
    .where(and(eq(entryRevisions.id, revisionId), eq(entryRevisions.entryId, entryId)))
    .limit(1);
  if (!found) throw new AppError("not_found");
  return found;
}

/** An entry the viewer may edit (protected ones: moderators only). */
async function loadEditableEntry(db: Executor, viewer: Viewer, id: number) {
  const loaded = await loadReadableEntry(db, viewer, id);
  authorize(viewer, can(viewer, "edit", loaded.access, loaded.row));
  return loaded;
}

function conflictError(current: { revisionId: number; snapshot: EntrySnapshot }, yours: EntrySnapshot, fields: string[]): AppError {
  return new AppError("edit_conflict", {
    details: { current_revision: current.revisionId, conflicts: fields, current: current.snapshot, yours },
  });
}

/** Saves a new state of the entry as its next revision, unless nothing changed. */
async function saveSnapshot(
  options: ServiceOptions,
  viewer: Viewer,
  row: EntryRow,
  snapshot: EntrySnapshot,
  details: { summary: string; revertOf: number | null; expectedRevision: number | null; now: Date },
): Promise<{ revisionId: number; changed: boolean }> {
  const normalized = normalizedSnapshot(snapshot);
  checkCitations(normalized);
  await checkPhotos(options.db, normalized);
  const unchanged = snapshotHash(normalized) === snapshotHash(snapshotOfRow(row));
  if (unchanged && details.revertOf === null) return { revisionId: row.revisionId ?? 0, changed: false };
  const html = await renderEntryContent(normalized, row.language);
  return inTransaction(options, async (tx) => {
    // Another save may have landed while this one rendered: then it is the caller's to merge again.
    const [current] = await tx.db
      .select({ revisionId: encyclopediaEntries.revisionId })
      .from(encyclopediaEntries)
      .where(eq(encyclopediaEntries.id, row.id))
      .for("update");
    if (!current) throw new AppError("not_found");
    if (current.revisionId !== row.revisionId)
      throw conflictError({ revisionId: current.revisionId ?? 0, snapshot: snapshotOfRow(row) }, normalized, ["content"]);
    await checkParent(tx.db, row.circleId, row.id, normalized.parent_id);
    await checkNames(tx.db, row.circleId, row.language, row.id, normalized);
    const revision = await writeRevision(tx, row, normalized, html, {
      authorId: viewer.id,
      summary: details.summary,
      revertOf: details.revertOf,
      now: details.now,
      first: false,
    });
    tx.invalidate(...savedTags(row, [row.parentId, normalized.parent_id]));
    return { revisionId: revision.id, changed: true };
  });
}

/**
 * Edits an entry on top of `base_revision`. When revisions were saved since, the edit merges
 * with them three ways: different places both stay; the same place changed on both sides is a
 * 409 `edit_conflict` carrying the current revision and both texts (nothing typed is lost).
 */
export async function updateEntry(
  options: ServiceOptions,
  viewer: Viewer,
  id: number,
  input: UpdateEntryInput,
  now: Date = new Date(),
): Promise<{ id: number; url: string; revisionId: number; merged: boolean }> {
  const { row } = await loadEditableEntry(options.db, viewer, id);
  const base =
    input.base_revision === row.revisionId
      ? snapshotOfRow(row)
      : (
          await revisionSnapshot(options.db, row.id, input.base_revision).catch(() => {
            throw new AppError("validation_failed", { fields: { base_revision: "validation:invalid_value" } });
          })
        ).snapshot;
  const mine: EntrySnapshot = {
    name: input.name ?? base.name,
    aliases: input.aliases ?? base.aliases,
    disambiguation: input.disambiguation === undefined ? base.disambiguation : input.disambiguation,
    parent_id: input.parent_id === undefined ? base.parent_id : input.parent_id,
    content: input.content ?? base.content,
    references: input.references ?? base.references,
    citation: input.citation ?? base.citation,
    photos: input.photos ?? base.photos,
  };
  let target = mine;
  const merged = input.base_revision !== row.revisionId;
  if (merged) {
    const current = snapshotOfRow(row);
    const outcome = mergeSnapshots(base, current, normalizedSnapshot(mine));
    if ("conflicts" in outcome) throw conflictError({ revisionId: row.revisionId ?? 0, snapshot: current }, mine, outcome.conflicts);
    target = outcome.merged;
  }
  const saved = await saveSnapshot(options, viewer, row, target, {
    summary: input.summary,
    revertOf: null,
    expectedRevision: row.revisionId,
    now,
  });
  return { id: row.id, url: entryPath(row), revisionId: saved.revisionId, merged };
}

/** Restores an old revision as a new one (whoever may edit); a parent deleted since is left out. */
export async function revertEntry(
  options: ServiceOptions,
  viewer: Viewer,
  id: number,
  revisionId: number,
  summary: string,
  now: Date = new Date(),
): Promise<{ id: number; url: string; revisionId: number }> {
  const { row } = await loadEditableEntry(options.db, viewer, id);
  const { snapshot } = await revisionSnapshot(options.db, row.id, revisionId);
  let parentId = snapshot.parent_id;
  if (parentId !== null) {
    const [parent] = await options.db
      .select({ id: encyclopediaEntries.id })
      .from(encyclopediaEntries)
      .where(eq(encyclopediaEntries.id, parentId))
      .limit(1);
    if (!parent) parentId = null;
  }
  const saved = await saveSnapshot(
    options,
    viewer,
    row,
    { ...snapshot, parent_id: parentId },
    {
      summary,
      revertOf: revisionId,
      expectedRevision: row.revisionId,
      now,
    },
  );
  return { id: row.id, url: entryPath(row), revisionId: saved.revisionId };
}

/** Every language version of the entry's group (full rows, later versions first: the first is what they point at). */
async function groupRows(db: Executor, row: Pick<EntryRow, "id" | "translationOf">): Promise<EntryRow[]> {
  const group = row.translationOf ?? row.id;
  return db
    .select()
    .from(encyclopediaEntries)
    .where(sql`coalesce(${encyclopediaEntries.translationOf}, ${encyclopediaEntries.id}) = ${group}`)
    .orderBy(desc(encyclopediaEntries.id));
}

/**
 * Protects or unprotects an entry — all its language versions together (like Baidu Baike's entry
 * and Wikipedia's page): asked on any version, every version then takes edits from moderators
 * only, or from every writer again.
 */
export async function setEntryProtection(
  options: ServiceOptions,
  viewer: Viewer,
  id: number,
  protect: boolean,
  /** Asked from the admin area: site staff may where site moderation reaches (`canModerate`), not only the circle's moderators. */
  asSiteStaff = false,
): Promise<{ protected: boolean }> {
  const { row, access } = await loadReadableEntry(options.db, viewer, id);
  authorize(viewer, can(viewer, "protect", access, row) || (asSiteStaff && (await canModerate(options.db, viewer, row.circleId))));
  return inTransaction(options, async (tx) => {
    const changed = (await groupRows(tx.db, row)).filter((version) => version.protected !== protect);
    if (changed.length === 0) return { protected: protect };
    await tx.db
      .update(encyclopediaEntries)
      .set({ protected: protect })
      .where(
        inArray(
          encyclopediaEntries.id,
          changed.map((version) => version.id),
        ),
      );
    for (const version of changed) {
      await emit(tx, {
        actorId: viewer.id,
        verb: "entry.protection_changed",
        subjectId: version.id,
        data: { circleId: version.circleId, protected: protect },
      });
      tx.invalidate(contentTag("entry", version.id));
    }
    return { protected: protect };
  });
}

/**
 * Deletes an entry for good — all its language versions together (the circle's moderators; spec
 * §4: confirmed, irreversible), asked on any version: their revisions go with them (their
 * contents when no other revision shares them), their children lose their parent, and what
 * hangs on each as a subject (reactions, favourites…) goes too.
 */
export async function deleteEntry(options: ServiceOptions, viewer: Viewer, id: number): Promise<{ circleId: number }> {
  const { row, access } = await loadReadableEntry(options.db, viewer, id);
  authorize(viewer, can(viewer, "delete", access, row));
  return inTransaction(options, async (tx) => {
    const versions = await groupRows(tx.db, row);
    const ids = versions.map((version) => version.id);
    const hashes = await tx.db
      .selectDistinct({ hash: entryRevisions.contentHash })
      .from(entryRevisions)
      .where(inArray(entryRevisions.entryId, ids));
    const children = await tx.db
      .select({ id: encyclopediaEntries.id })
      .from(encyclopediaEntries)
      .where(and(inArray(encyclopediaEntries.parentId, ids), notInArray(encyclopediaEntries.id, ids)));
    // Later versions first: the first version is what they point at.
    for (const version of versions) await tx.db.delete(encyclopediaEntries).where(eq(encyclopediaEntries.id, version.id));
    if (hashes.length > 0)
      await tx.db.delete(entryRevisionContents).where(
        and(
          inArray(
            entryRevisionContents.hash,
            hashes.map((item) => item.hash),
          ),
          sql`not exists (select 1 from entry_revisions r where r.content_hash = ${entryRevisionContents.hash})`,
        ),
      );
    await deleteSubjectDependents(tx, "entry", ids);
    for (const version of versions) {
      await emit(tx, {
        actorId: viewer.id,
        verb: "entry.deleted",
        subjectId: version.id,
        data: { circleId: version.circleId, creatorId: version.creatorId, name: version.name },
      });
      tx.invalidate(
        ...entryTags(version),
        ...subjectTags(version.id),
        circleTag(version.circleId),
        ...(version.parentId === null ? [] : [contentTag("entry", version.parentId)]),
      );
    }
    tx.invalidate(...children.map((child) => contentTag("entry", child.id)));
    return { circleId: row.circleId };
  });
}

function subjectTags(id: number): string[] {
  return [contentTag("entry", id), countsTag("entry", id)];
}
