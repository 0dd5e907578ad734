import { and, eq, inArray, isNull, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Executor } from "../../server/db/client.ts";
import { subjectCounts, users, writings } from "../../server/db/schema/index.ts";
import { afterCursor, authoredCandidates } from "../feeds/conditions.ts";
import { inReadableCircles } from "../circles/access.server.ts";
import type { FeedMember, FeedScope } from "../feeds/registry.ts";
import type { FeedCard } from "../feeds/types.ts";
import { writingPath } from "./paths.ts";
import type { WritingLanguage } from "./schema.ts";

/**
 * Writings in the home feeds (first language versions, one card per group): Latest shows articles
 * and serialized articles, All, Hot and Follow every type. Index ranges: `writings_time_idx`
 * (Latest, All), `writings_hot_idx` (Hot), per followed author `writings_author_list_idx` and per
 * joined circle `writings_circle_list_idx` (Follow).
 */
function candidates(scope: FeedScope): SQL {
  const hot = scope.tab === "hot";
  const conditions: (SQL | undefined)[] = [
    inReadableCircles(writings.circleId, scope.circles),
    isNull(writings.translationOf),
    // Hidden by moderation: out of every list until restored.
    isNull(writings.hiddenAt),
    scope.tab === "latest" ? inArray(writings.type, ["article", "serial"]) : undefined,
    afterCursor("writing", { time: writings.publishedAt, score: writings.hotScore, id: writings.id }, scope.cursor, hot),
  ];
  const where = and(...conditions);
  return authoredCandidates({
    kind: "writing",
    table: writings,
    columns: {
      id: writings.id,
      at: writings.publishedAt,
      score: writings.hotScore,
      authorId: writings.authorId,
      circleId: writings.circleId,
    },
    where,
    scope,
  });
}

async function cards(db: Executor, ids: number[], locale: WritingLanguage): Promise<Map<number, FeedCard>> {
  const version = alias(writings, "version");
  const rows = await db
    .select({
      id: writings.id,
      circleId: writings.circleId,
      type: writings.type,
      title: sql<string>`coalesce(${version.title}, ${writings.title})`,
      excerpt: sql<string>`coalesce(${version.excerpt}, ${writings.excerpt})`,
      language: sql<WritingLanguage>`coalesce(${version.language}, ${writings.language})`,
      views: writings.views,
      comments: writings.commentCount,
      likes: sql<number>`coalesce(${subjectCounts.likeCount}, 0)`.mapWith(Number),
      coverFileId: writings.coverFileId,
      publishedAt: writings.publishedAt,
      partNumber: writings.partNumber,
      author: { id: users.id, username: users.username, nickname: users.nickname, avatar: users.avatar },
    })
    .from(writings)
    .innerJoin(users, eq(users.id, writings.authorId))
    .leftJoin(version, and(eq(version.translationOf, writings.id), eq(version.language, locale)))
    .leftJoin(subjectCounts, and(eq(subjectCounts.subjectType, "writing"), eq(subjectCounts.subjectId, writings.id)))
    .where(inArray(writings.id, ids));
  return new Map(
    rows.map((row): [number, FeedCard] => [
      row.id,
      {
        key: `writing-${row.id}`,
        kind: "writing",
        id: row.id,
        label: row.type,
        title: row.title,
        path: writingPath(row),
        excerpt: row.excerpt,
        language: row.language,
        coverFileId: row.coverFileId,
        author: row.author,
        circleId: row.circleId,
        at: row.publishedAt.toISOString(),
        views: row.views,
        comments: row.comments,
        likes: row.likes,
        partNumber: row.type === "serial" ? row.partNumber : null,
        bookName: null,
        chapterNumber: null,
      },
    ]),
  );
}

/** The `feed` member of the writing registration (subject.ts). */
export const writingFeed: FeedMember = { tabs: ["latest", "hot", "all", "follow"], candidates, cards };
