import type { Executor } from "../../server/db/client.ts";
import type { Viewer } from "../accounts/viewer.ts";
import type { CircleAccess } from "../circles/policy.ts";
import { writingPermissions } from "./policy.ts";
import { writingPath } from "./paths.ts";
import { authorOf, categoriesOf, languageVersions, seriesParts, type ReadingData, type ReadingRow } from "./queries.ts";

/** What leaves the server about one writing (API and reading pages), with the viewer's allowed actions. */
/**
 * A writing as the API and the reading page present it. The page passes `markdown: false`: it shows
 * the stored HTML, and the Markdown source would double what the page sends.
 */
export async function presentWriting(
  db: Executor,
  viewer: Viewer | null,
  row: ReadingRow & { markdown?: string },
  access: CircleAccess,
  options: { markdown?: boolean; loaded?: Pick<ReadingData, "author" | "categories" | "versions"> } = {},
) {
  const { loaded } = options;
  const [author, categories, versions, parts] = await Promise.all([
    loaded ? loaded.author : authorOf(db, row.authorId),
    loaded ? loaded.categories : categoriesOf(db, row.id),
    loaded ? loaded.versions : languageVersions(db, row),
    seriesParts(db, row),
  ]);
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

export type PresentedWriting = Awaited<ReturnType<typeof presentWriting>>;
