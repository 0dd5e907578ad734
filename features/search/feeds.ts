import { Feed } from "feed";
import { sql } from "drizzle-orm";
import type { Executor } from "../../server/db/client.ts";
import { localizePath, type Locale } from "../../common/locale.ts";
import { AppError } from "../../common/app-error.ts";
import { loadCircleAccessMap } from "../circles/access.server.ts";
import { canReadCircleContent } from "../circles/policy.ts";
import { localizedTexts } from "../circles/presenter.ts";
import { circleRows } from "../circles/tree.server.ts";
import { searchTypesSql } from "./registry.ts";

/**
 * RSS 2.0 and Atom feeds (`/feed.xml`, `/circles/{id}/feed.xml`, `/profile/{username}/feed.xml`,
 * each under `/en` too): the newest writings, books and questions a visitor may read, in the
 * language of the prefix (items without a language, and items of the other language when the
 * prefix's has none, are left to their own feed). Feed readers carry no session, so visibility
 * is always a visitor's. Items come from the search index (titles, authors, text, visibility).
 */

export type FeedScope = { kind: "site" } | { kind: "circle"; circleId: number } | { kind: "user"; username: string };

interface ItemRow {
  type: string;
  id: number;
  title: string;
  path: string;
  body: string;
  published_at: Date | string;
  username: string | null;
  nickname: string | null;
  [key: string]: unknown;
}

const itemCount = 30;

export interface FeedTexts {
  title: string;
  description: string;
}

/** The feed document; `texts` names it in the prefix's language. Unknown or unreadable scopes are `not_found`. */
export async function buildFeed(
  db: Executor,
  options: { scope: FeedScope; locale: Locale; origin: string; format: "rss" | "atom"; texts: (name: string) => FeedTexts },
): Promise<string> {
  const { scope, locale, origin } = options;
  const readable = [...(await loadCircleAccessMap(db, null)).values()].filter(canReadCircleContent).map((access) => access.circle.id);
  let where = sql`true`;
  let texts = options.texts("");
  let page = "/";
  let feedPath = "/feed.xml";
  if (scope.kind === "circle") {
    const row = (await circleRows(db)).find((circle) => circle.id === scope.circleId);
    if (!row || !readable.includes(row.id)) throw new AppError("not_found");
    where = sql`d.circle_id = ${row.id}`;
    texts = options.texts(localizedTexts(row, locale).name);
    page = `/circles/${row.id}`;
    feedPath = `${page}/feed.xml`;
  } else if (scope.kind === "user") {
    const result = await db.execute<{ id: number; username: string; nickname: string; [key: string]: unknown }>(
      sql`select id, username, nickname from users where lower(username) = lower(${scope.username}) and hidden_at is null limit 1`,
    );
    const user = (result as unknown as { rows: { id: number; username: string; nickname: string }[] }).rows[0];
    if (!user) throw new AppError("not_found");
    where = sql`d.author_id = ${user.id} and d.type = 'writing'`;
    texts = options.texts(user.nickname || user.username);
    page = `/profile/${encodeURIComponent(user.username)}`;
    feedPath = `${page}/feed.xml`;
  }
  const result = await db.execute<ItemRow>(sql`
    select d.type, d.id, d.title, d.path, d.body, d.published_at, u.username, u.nickname
    from search_documents d
    left join users u on u.id = d.author_id
    where d.type in (${searchTypesSql("inSiteFeeds")}) and d.circle_id = any(${`{${readable.join(",")}}`}::integer[])
      and (d.language = ${locale} or d.language is null) and ${where}
    order by d.published_at desc, d.id desc
    limit ${itemCount}`);
  const rows = (result as unknown as { rows: ItemRow[] }).rows;
  const absolute = (path: string) => `${origin}${localizePath(path, locale)}`;
  const feed = new Feed({
    title: texts.title,
    description: texts.description,
    id: absolute(page),
    link: absolute(page),
    language: locale,
    updated: rows[0] ? new Date(rows[0].published_at) : new Date(0),
    generator: false,
    feedLinks: { rss: absolute(feedPath), atom: `${absolute(feedPath)}?format=atom` },
    favicon: `${origin}/favicon.svg`,
  });
  for (const row of rows) {
    const link = absolute(row.path);
    feed.addItem({
      title: row.title,
      id: link,
      link,
      description: row.body.slice(0, 300),
      date: new Date(row.published_at),
      author: row.username ? [{ name: row.nickname || row.username, link: absolute(`/profile/${encodeURIComponent(row.username)}`) }] : [],
    });
  }
  return options.format === "atom" ? feed.atom1() : feed.rss2();
}
