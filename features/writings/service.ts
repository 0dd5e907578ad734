import type { Locale } from "../../common/locale.ts";
import { failedEdit } from "../content/edit-conflict.ts";
import { and, eq, max, or, sql } from "drizzle-orm";
import type { Executor } from "../../server/db/client.ts";
import { preparedQuery } from "../../server/lib/prepared.ts";
import { attachments, writingCategories, writingPaidParts, writings } from "../../server/db/schema/index.ts";
import { splitPaywall } from "../paywall/split.ts";
import { AppError } from "../../common/app-error.ts";
import { inTransaction, type ServiceOptions, type Transaction } from "../../server/lib/transactions.ts";
import type { Viewer } from "../accounts/viewer.ts";
import { loadCircleAccess } from "../circles/access.server.ts";
import { canViewCircle, type CircleAccess } from "../circles/policy.ts";
import { renderMarkdown } from "../content/render.server.ts";
import { readableContentAccess } from "../content/readable.ts";
import { checkCircleCategories } from "../circles/categories.ts";
import { excerptOfHtml } from "../content/excerpt.ts";
import { checkRelatedEntries, recountCitations } from "../encyclopedia/service.ts";
import type { RenderedContent } from "../content/schema.ts";
import { authorize } from "../../common/policy.ts";
import { can, canWriteIn } from "./policy.ts";
import { writingPath } from "./paths.ts";
import type { CreateWritingInput, UpdateWritingInput } from "./schema.ts";
import { readingData, type ReadingData } from "./queries.ts";
import { deleteSubjectDependents } from "../subjects/registry.ts";
import { emit } from "../events/bus.ts";
import { circleTag, circlesTag, contentTag, countsTag, homeTag, sitemapTag, userTag } from "../../server/lib/cache-tags.ts";
import { withdrawRedPacketsOf } from "../red-packets/returns.ts";

export type WritingRow = typeof writings.$inferSelect;

/** The first version of a writing's language group (its own id when it is the first). */
export const groupIdOf = (row: Pick<WritingRow, "id" | "translationOf">): number => row.translationOf ?? row.id;
/** Part 1 of a serialized article's series. */
export const seriesIdOf = (row: Pick<WritingRow, "id" | "seriesId">): number => row.seriesId ?? row.id;

/** What a writing's own content tags are: its own, its language group's and its series' (their switchers and part lists show it). */
export function writingContentTags(row: Pick<WritingRow, "id" | "translationOf" | "seriesId">): string[] {
  return [...new Set([row.id, groupIdOf(row), seriesIdOf(row)])].map((id) => contentTag("writing", id));
}

/** Pages that show a writing: its own (and its versions' and parts'), its circle's and the lists, its author's profile, home, the sitemap. */
export function writingTags(row: Pick<WritingRow, "id" | "circleId" | "translationOf" | "seriesId" | "authorId">): string[] {
  return [...writingContentTags(row), circleTag(row.circleId), userTag(row.authorId), circlesTag, homeTag, sitemapTag];
}

const writingQuery = preparedQuery((db) =>
  db
    .select()
    .from(writings)
    .where(eq(writings.id, sql.placeholder("id")))
    .limit(1)
    .prepare("writings_by_id"),
);

/**
 * A writing with the viewer's access to its circle, or `not_found` when it does not exist or the
 * viewer may not read it (a hidden circle's writing answers exactly like an unknown id).
 */
export async function loadReadableWriting(
  db: Executor,
  viewer: Viewer | null,
  id: number,
): Promise<{ row: WritingRow; access: CircleAccess }> {
  const [row] = await writingQuery(db).execute({ id });
  if (!row) throw new AppError("not_found");
  return { row, access: await readableAccess(db, viewer, row) };
}

/** `loadReadableWriting` for the reading page: the row without Markdown, with its author, categories, versions and follow state, in one query. */
export async function loadWritingForReading(
  db: Executor,
  viewer: Viewer | null,
  id: number,
): Promise<ReadingData & { access: CircleAccess }> {
  const data = await readingData(db, viewer?.id ?? null, id);
  if (!data) throw new AppError("not_found");
  return { ...data, access: await readableAccess(db, viewer, data.row) };
}

/** The viewer's access to a writing's circle, when the viewer may read the writing. */
function readableAccess(
  db: Executor,
  viewer: Viewer | null,
  row: Pick<WritingRow, "circleId" | "authorId" | "hiddenAt">,
): Promise<CircleAccess> {
  return readableContentAccess(db, viewer, row, (access) => can(viewer, "read", { writing: row, access }));
}

/** A cover must be an uploaded image. */
async function checkCover(db: Executor, fileId: string | null | undefined): Promise<void> {
  if (!fileId) return;
  const [file] = await db.select({ type: attachments.contentType }).from(attachments).where(eq(attachments.fileId, fileId)).limit(1);
  if (!file || !file.type.startsWith("image/"))
    throw new AppError("validation_failed", { fields: { cover_file_id: "validation:cover_invalid" } });
}

function renderedColumns(rendered: RenderedContent) {
  return {
    html: rendered.html,
    toc: rendered.toc,
    excerpt: rendered.excerpt,
    textLength: rendered.textLength,
    readingMinutes: rendered.readingMinutes,
  };
}

/** The pipeline's excerpt length (render.server.ts). */
export const excerptLength = 140;

/**
 * The excerpt lists, cards and the description meta show: the author's summary when there is one,
 * else the one read from the rendered text (`html`: formulas as their text, code left out).
 */
export function excerptFor(summary: string, rendered: { excerpt: string } | { html: string }, language: Locale): string {
  if (summary) return summary;
  return "excerpt" in rendered ? rendered.excerpt : excerptOfHtml(rendered.html, excerptLength, language);
}

type FieldInput = Partial<Omit<CreateWritingInput, "type" | "language" | "translation_of" | "series_id" | "content" | "categories">>;

function fieldColumns(input: FieldInput) {
  const columns: Partial<typeof writings.$inferInsert> = {};
  if (input.title !== undefined) columns.title = input.title;
  if (input.summary !== undefined) columns.summary = input.summary;
  if (input.kind !== undefined) columns.kind = input.kind;
  if (input.kind_name !== undefined || input.kind !== undefined)
    columns.kindName = input.kind === "custom" || input.kind === undefined ? input.kind_name || null : null;
  if (input.related_entries !== undefined) columns.relatedEntryIds = [...new Set(input.related_entries)];
  if (input.cover_file_id !== undefined) columns.coverFileId = input.cover_file_id;
  if (input.is_repost !== undefined) columns.isRepost = input.is_repost;
  if (input.source_url !== undefined || input.is_repost !== undefined)
    columns.sourceUrl = input.is_repost === false ? null : input.source_url || null;
  if (input.disable_copy !== undefined) columns.disableCopy = input.disable_copy;
  if (input.disable_context_menu !== undefined) columns.disableContextMenu = input.disable_context_menu;
  if (input.tip_enabled !== undefined) columns.tipEnabled = input.tip_enabled;
  if (input.pay_to_view_price !== undefined) columns.payToViewPrice = input.pay_to_view_price;
  if (input.pay_to_view !== undefined) columns.payToViewPrice = input.pay_to_view?.price ?? 0;
  if (input.red_packet_amount !== undefined) columns.redPacketAmount = input.red_packet_amount;
  return columns;
}

/**
 * Publishes a writing in a circle (`write` in the circles policy). A `translation_of` adds a
 * language version of the author's own writing (same circle and type, a language it lacks); a
 * `series_id` adds the next part of the author's serialized article. The Markdown is rendered
 * before the transaction opens.
 */
export async function createWriting(
  options: ServiceOptions,
  viewer: Viewer,
  circleId: number,
  input: CreateWritingInput,
): Promise<{ id: number; url: string }> {
  const access = await loadCircleAccess(options.db, viewer, circleId);
  if (!access || !canViewCircle(access)) throw new AppError("not_found");
  authorize(viewer, canWriteIn(viewer, access));
  // Pay-to-view: the part after the paywall line is rendered apart and stored apart (writing_paid_parts).
  const parts = splitPaywall(input.content, input.pay_to_view !== undefined ? (input.pay_to_view?.price ?? 0) : input.pay_to_view_price);
  const rendered = await renderMarkdown(parts.free, { locale: input.language });
  const paid = parts.paid === null ? null : await renderMarkdown(parts.paid, { locale: input.language });
  return inTransaction(options, async (tx) => {
    let type = input.type;
    let translationOf: number | null = null;
    let seriesId: number | null = null;
    let partNumber = 1;
    if (input.translation_of !== null) {
      const original = await linkedWriting(tx, viewer, input.translation_of, circleId);
      translationOf = groupIdOf(original);
      type = original.type;
      const [clash] = await tx.db
        .select({ id: writings.id })
        .from(writings)
        .where(and(or(eq(writings.id, translationOf), eq(writings.translationOf, translationOf)), eq(writings.language, input.language)))
        .limit(1);
      if (clash)
        throw new AppError("language_version_exists", {
          fields: { language: "validation:language_version_exists" },
          details: { existing_id: clash.id },
        });
      seriesId = original.seriesId;
      partNumber = original.partNumber;
    } else if (input.series_id !== null) {
      const part = await linkedWriting(tx, viewer, input.series_id, circleId);
      if (part.type !== "serial") throw new AppError("validation_failed", { fields: { series_id: "validation:series_invalid" } });
      type = "serial";
      seriesId = seriesIdOf(part);
      const [last] = await tx.db
        .select({ part: max(writings.partNumber) })
        .from(writings)
        .where(and(or(eq(writings.id, seriesId), eq(writings.seriesId, seriesId)), sql`${writings.translationOf} is null`));
      partNumber = (last?.part ?? 1) + 1;
    }
    const categories = await checkCircleCategories(tx.db, circleId, input.categories);
    await checkCover(tx.db, input.cover_file_id);
    await checkRelatedEntries(tx.db, viewer, input.related_entries);
    const [row] = await tx.db
      .insert(writings)
      .values({
        circleId,
        authorId: viewer.id,
        type,
        language: input.language,
        translationOf,
        seriesId,
        partNumber,
        markdown: input.content,
        ...renderedColumns(rendered),
        ...fieldColumns(input),
        excerpt: excerptFor(input.summary, rendered, input.language),
        title: input.title,
      })
      .returning();
    const writing = row!;
    if (paid) await tx.db.insert(writingPaidParts).values({ writingId: writing.id, html: paid.html });
    if (categories.length > 0)
      await tx.db.insert(writingCategories).values(categories.map((categoryId) => ({ writingId: writing.id, categoryId })));
    await emit(tx, {
      actorId: viewer.id,
      verb: "writing.published",
      subjectId: writing.id,
      data: { circleId, type, language: input.language, translationOf, seriesId },
    });
    await recountCitations(tx.db, writing.relatedEntryIds);
    tx.invalidate(...writingTags(writing), ...writing.relatedEntryIds.map((entryId) => countsTag("entry", entryId)));
    return { id: writing.id, url: writingPath(writing) };
  });
}

/** The writing a new version or part extends: the author's own, readable, in the same circle. */
async function linkedWriting(tx: Transaction, viewer: Viewer, id: number, circleId: number): Promise<WritingRow> {
  const [row] = await tx.db.select().from(writings).where(eq(writings.id, id)).limit(1);
  if (!row || row.circleId !== circleId)
    throw new AppError("validation_failed", { fields: { translation_of: "validation:linked_writing_invalid" } });
  const access = await loadCircleAccess(tx.db, viewer, row.circleId);
  if (!access || !can(viewer, "extend", { writing: row, access })) throw new AppError("forbidden");
  return row;
}

/**
 * Edits a writing (its author only). `version` is the version the edit was based on: another save
 * in between answers 409 `edit_conflict` carrying the current version, never a silent overwrite.
 */
export async function updateWriting(options: ServiceOptions, viewer: Viewer, id: number, input: UpdateWritingInput): Promise<WritingRow> {
  const { row: before, access } = await loadReadableWriting(options.db, viewer, id);
  authorize(viewer, can(viewer, "edit", { writing: before, access }));
  const price = input.pay_to_view !== undefined ? (input.pay_to_view?.price ?? 0) : (input.pay_to_view_price ?? before.payToViewPrice);
  // A new text or a new price splits the text at its paywall line again (the paid part is stored apart).
  const rerender = input.content !== undefined || price !== before.payToViewPrice;
  const parts = rerender ? splitPaywall(input.content ?? before.markdown, price) : undefined;
  const rendered = parts ? await renderMarkdown(parts.free, { locale: before.language }) : undefined;
  const paid = parts?.paid != null ? await renderMarkdown(parts.paid, { locale: before.language }) : null;
  // A new summary or a new text: the excerpt follows (the summary wins; without one, the text's own).
  const excerpt =
    input.summary === undefined && !rendered
      ? undefined
      : excerptFor(input.summary ?? before.summary, rendered ?? { html: before.html }, before.language);
  return inTransaction(options, async (tx) => {
    const categories = input.categories === undefined ? undefined : await checkCircleCategories(tx.db, before.circleId, input.categories);
    await checkCover(tx.db, input.cover_file_id);
    await checkRelatedEntries(tx.db, viewer, input.related_entries);
    const [row] = await tx.db
      .update(writings)
      .set({
        ...fieldColumns(input),
        ...(rendered ? { markdown: input.content ?? before.markdown, ...renderedColumns(rendered) } : {}),
        ...(excerpt === undefined ? {} : { excerpt }),
        version: sql`${writings.version} + 1`,
        editedAt: sql`now()`,
      })
      .where(and(eq(writings.id, id), eq(writings.version, input.version)))
      .returning();
    if (!row) throw await failedEdit(tx.db.select().from(writings).where(eq(writings.id, id)).limit(1));
    if (rendered) {
      await tx.db.delete(writingPaidParts).where(eq(writingPaidParts.writingId, id));
      if (paid) await tx.db.insert(writingPaidParts).values({ writingId: id, html: paid.html });
    }
    if (categories) {
      await tx.db.delete(writingCategories).where(eq(writingCategories.writingId, id));
      if (categories.length > 0)
        await tx.db.insert(writingCategories).values(categories.map((categoryId) => ({ writingId: id, categoryId })));
    }
    await emit(tx, {
      actorId: viewer.id,
      verb: "writing.edited",
      subjectId: id,
      data: { version: row.version },
    });
    const cited = [...new Set([...before.relatedEntryIds, ...row.relatedEntryIds])];
    if (input.related_entries !== undefined) await recountCitations(tx.db, cited);
    tx.invalidate(...writingTags(row), ...cited.map((entryId) => countsTag("entry", entryId)));
    return row;
  });
}

/**
 * Deletes a writing for good (the author, or the circle's moderators). Later parts of a series
 * whose first part goes are re-linked to the next part; other language versions stay.
 */
export async function deleteWriting(options: ServiceOptions, viewer: Viewer, id: number): Promise<{ circleId: number }> {
  const { row, access } = await loadReadableWriting(options.db, viewer, id);
  authorize(viewer, can(viewer, "delete", { writing: row, access }));
  return inTransaction(options, async (tx) => {
    await removeWriting(tx, row, viewer.id);
    return { circleId: row.circleId };
  });
}

/** The deletion itself, for its author or moderators (`deleteWriting`) and moderation decisions (the registry's `remove`). */
export async function removeWriting(tx: Transaction, row: WritingRow, actorId: number): Promise<void> {
  if (row.type === "serial" && row.seriesId === null && row.translationOf === null) {
    const later = await tx.db
      .select({ id: writings.id, partNumber: writings.partNumber })
      .from(writings)
      .where(eq(writings.seriesId, row.id))
      .orderBy(writings.partNumber, writings.id);
    const head = later[0];
    if (head) {
      await tx.db.update(writings).set({ seriesId: null }).where(eq(writings.id, head.id));
      await tx.db
        .update(writings)
        .set({ seriesId: head.id })
        .where(and(eq(writings.seriesId, row.id), sql`${writings.id} <> ${head.id}`));
    }
  }
  // Red packets on it give what is left back to their funders first (their rows stay, detached).
  await withdrawRedPacketsOf(tx, row.id);
  // Language versions pointing here become a group of their own (the foreign key sets null; the
  // remaining versions of a three-way group would collide, and there are only two languages).
  await tx.db.delete(writings).where(eq(writings.id, row.id));
  // What hangs on it (comments…) has no foreign key to it: it goes with it, in this transaction.
  await deleteSubjectDependents(tx, "writing", [row.id]);
  await emit(tx, {
    actorId,
    verb: "writing.deleted",
    subjectId: row.id,
    data: { circleId: row.circleId, authorId: row.authorId, title: row.title },
  });
  await recountCitations(tx.db, row.relatedEntryIds);
  tx.invalidate(...writingTags(row), ...row.relatedEntryIds.map((entryId) => countsTag("entry", entryId)));
}

/** Ids of the categories a writing is filed under. */
export async function categoryIdsOf(db: Executor, writingId: number): Promise<number[]> {
  const rows = await db
    .select({ id: writingCategories.categoryId })
    .from(writingCategories)
    .where(eq(writingCategories.writingId, writingId));
  return rows.map((row) => row.id);
}
