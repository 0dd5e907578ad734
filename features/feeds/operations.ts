import { z } from "zod";
import { defineOperation } from "../../server/lib/operation.ts";
import { listFeed } from "./service.ts";
import { feedTabs, type FeedPage } from "./types.ts";

const authorSchema = z.strictObject({ id: z.number(), username: z.string(), nickname: z.string(), avatar: z.string().nullable() });

/** One card as the API answers it: a writing, a book or a new chapter (`kind`), with what the card shows. */
export const feedPageSchema = z.strictObject({
  items: z.array(
    z.strictObject({
      kind: z.string(),
      id: z.number(),
      label: z.string(),
      title: z.string(),
      path: z.string(),
      excerpt: z.string(),
      language: z.enum(["zh-CN", "en"]).nullable(),
      cover_file_id: z.string().nullable(),
      author: authorSchema,
      circle_id: z.number(),
      at: z.string(),
      views: z.number(),
      comments: z.number().nullable(),
      likes: z.number(),
      part_number: z.number().nullable(),
      book_name: z.string().nullable(),
      chapter_number: z.number().nullable(),
    }),
  ),
  next_cursor: z.string().nullable(),
});

export function presentFeedPage(page: FeedPage): z.infer<typeof feedPageSchema> {
  return {
    items: page.cards.map((card) => ({
      kind: card.kind,
      id: card.id,
      label: card.label,
      title: card.title,
      path: card.path,
      excerpt: card.excerpt,
      language: card.language,
      cover_file_id: card.coverFileId,
      author: card.author,
      circle_id: card.circleId,
      at: card.at,
      views: card.views,
      comments: card.comments,
      likes: card.likes,
      part_number: card.partNumber,
      book_name: card.bookName,
      chapter_number: card.chapterNumber,
    })),
    next_cursor: page.nextCursor,
  };
}

/** The home feed over every registered kind: latest, hot, all or follow, paged by cursor. */
export const listFeedOperation = defineOperation({
  name: "listHomeFeed",
  lagging: true,
  input: { query: z.object({ tab: z.enum(feedTabs).default("latest"), cursor: z.string().max(60).optional() }) },
  viewer: "optional",
  run: (services, viewer, { query }) => listFeed(services.db, viewer, { tab: query.tab, cursor: query.cursor, locale: services.locale }),
  present: presentFeedPage,
  response: feedPageSchema,
  failures: [],
});
