import type { Executor } from "../../server/db/client.ts";
import type { Viewer } from "../accounts/viewer.ts";
import type { CircleAccess } from "../circles/policy.ts";
import { writingPermissions } from "./policy.ts";
import { writingPath } from "./paths.ts";
import { z } from "zod";
import {
  authorOf,
  categoriesOf,
  languageVersions,
  seriesParts,
  type ReadingData,
  type ReadingRow,
  type WritingListPage,
} from "./queries.ts";
import { writingLanguageValues, writingTypeValues } from "./schema.ts";

/** What the presenter shows beside the row: read by `writingDetails` (the loaders), never by the presenter. */
export interface WritingDetails {
  author: Awaited<ReturnType<typeof authorOf>>;
  categories: Awaited<ReturnType<typeof categoriesOf>>;
  versions: Awaited<ReturnType<typeof languageVersions>>;
  parts: Awaited<ReturnType<typeof seriesParts>>;
}

/** The author, categories, language versions and series parts of a writing (what the reading page loaded already is reused). */
export async function writingDetails(
  db: Executor,
  row: ReadingRow,
  loaded?: Pick<ReadingData, "author" | "categories" | "versions">,
): Promise<WritingDetails> {
  const [author, categories, versions, parts] = await Promise.all([
    loaded ? loaded.author : authorOf(db, row.authorId),
    loaded ? loaded.categories : categoriesOf(db, row.id),
    loaded ? loaded.versions : languageVersions(db, row),
    seriesParts(db, row),
  ]);
  return { author, categories, versions, parts };
}

/**
 * A writing as the API and the reading page present it, with the viewer's allowed actions; pure
 * (the details come from `writingDetails`). The page passes `markdown: false`: it shows the stored
 * HTML, and the Markdown source would double what the page sends.
 */
export function presentWriting(
  viewer: Viewer | null,
  row: ReadingRow & { markdown?: string },
  access: CircleAccess,
  { author, categories, versions, parts }: WritingDetails,
  options: { markdown?: boolean } = {},
) {
  const index = parts.findIndex((part) => part.id === (row.translationOf ?? row.id));
  return {
    id: row.id,
    url: writingPath(row),
    circle_id: row.circleId,
    type: row.type,
    kind: row.kind,
    kind_name: row.kindName,
    language: row.language,
    title: row.title,
    content: options.markdown === false ? undefined : row.markdown,
    html: row.html,
    toc: row.toc,
    excerpt: row.excerpt,
    summary: row.summary,
    text_length: row.textLength,
    reading_minutes: row.readingMinutes,
    cover_file_id: row.coverFileId,
    cover_url: row.coverFileId ? `/attach/${row.coverFileId}` : null,
    is_repost: row.isRepost,
    source_url: row.sourceUrl,
    disable_copy: row.disableCopy,
    disable_context_menu: row.disableContextMenu,
    tip_enabled: row.tipEnabled,
    pay_to_view_price: row.payToViewPrice,
    red_packet_amount: row.redPacketAmount,
    related_entries: row.relatedEntryIds,
    version: row.version,
    views: row.views,
    published_at: row.publishedAt.toISOString(),
    edited_at: row.editedAt?.toISOString() ?? null,
    author,
    categories,
    translation_of: row.translationOf,
    versions: versions.map((version) => ({ id: version.id, language: version.language, title: version.title })),
    series:
      row.type === "serial"
        ? {
            id: row.seriesId ?? row.translationOf ?? row.id,
            part_number: row.partNumber,
            parts: parts.map((part) => ({ id: part.id, part_number: part.partNumber, title: part.title })),
            previous: index > 0 ? parts[index - 1]!.id : null,
            next: index >= 0 && index < parts.length - 1 ? parts[index + 1]!.id : null,
          }
        : null,
    can: writingPermissions(viewer, { writing: row, access }),
  };
}

export type PresentedWriting = ReturnType<typeof presentWriting>;

/** One writing of a list as the API answers it (snake_case like every answer). */
export const writingListItemSchema = z.strictObject({
  id: z.number(),
  circle_id: z.number(),
  type: z.enum(writingTypeValues),
  title: z.string(),
  excerpt: z.string(),
  language: z.enum(writingLanguageValues),
  views: z.number(),
  text_length: z.number(),
  cover_file_id: z.string().nullable(),
  published_at: z.string(),
  part_number: z.number(),
  author: z.strictObject({ id: z.number(), username: z.string(), nickname: z.string(), avatar: z.string().nullable() }),
});
export const writingListPageSchema = z.strictObject({ items: z.array(writingListItemSchema), next_cursor: z.string().nullable() });
export type PresentedWritingListPage = z.infer<typeof writingListPageSchema>;

export function presentWritingListPage(page: WritingListPage): PresentedWritingListPage {
  return {
    items: page.items.map((item) => ({
      id: item.id,
      circle_id: item.circleId,
      type: item.type,
      title: item.title,
      excerpt: item.excerpt,
      language: item.language,
      views: item.views,
      text_length: item.textLength,
      cover_file_id: item.coverFileId,
      published_at: item.publishedAt,
      part_number: item.partNumber,
      author: item.author,
    })),
    next_cursor: page.nextCursor,
  };
}

const tocSchema = z.array(z.strictObject({ depth: z.number(), text: z.string(), id: z.string() }));
const authorSchema = z.strictObject({ id: z.number(), username: z.string(), nickname: z.string(), avatar: z.string().nullable() });

/** One writing as the API answers it (`presentWriting`). */
export const writingAnswerSchema = z.strictObject({
  id: z.number(),
  url: z.string(),
  circle_id: z.number(),
  type: z.enum(writingTypeValues),
  kind: z.string().nullable(),
  kind_name: z.string().nullable(),
  language: z.enum(writingLanguageValues),
  title: z.string(),
  content: z.string().optional(),
  html: z.string(),
  toc: tocSchema,
  excerpt: z.string(),
  summary: z.string(),
  text_length: z.number(),
  reading_minutes: z.number(),
  cover_file_id: z.string().nullable(),
  cover_url: z.string().nullable(),
  is_repost: z.boolean(),
  source_url: z.string().nullable(),
  disable_copy: z.boolean(),
  disable_context_menu: z.boolean(),
  tip_enabled: z.boolean(),
  pay_to_view_price: z.number().nullable(),
  red_packet_amount: z.number().nullable(),
  related_entries: z.array(z.number()),
  version: z.number(),
  views: z.number(),
  published_at: z.string(),
  edited_at: z.string().nullable(),
  author: authorSchema.nullable(),
  categories: z.array(z.strictObject({ id: z.number(), name: z.string() })),
  translation_of: z.number().nullable(),
  versions: z.array(z.strictObject({ id: z.number(), language: z.enum(writingLanguageValues), title: z.string() })),
  series: z
    .object({
      id: z.number(),
      part_number: z.number(),
      parts: z.array(z.strictObject({ id: z.number(), part_number: z.number(), title: z.string() })),
      previous: z.number().nullable(),
      next: z.number().nullable(),
    })
    .nullable(),
  can: z.record(z.string(), z.boolean()),
});

export const draftAnswerSchema = z.strictObject({
  key: z.string(),
  title: z.string(),
  body: z.string(),
  fields: z.record(z.string(), z.unknown()),
  version: z.number(),
  updated_at: z.string(),
});
export const renderedPreviewSchema = z.strictObject({
  html: z.string(),
  toc: tocSchema,
  text_length: z.number(),
  reading_minutes: z.number(),
});
