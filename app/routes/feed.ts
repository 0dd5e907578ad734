import type { Route } from "./+types/feed";
import { getAppContext, tagPage } from "../lib/context.server.ts";
import { pageUrl } from "../../common/locale.ts";
import { getI18n } from "../../common/i18n.ts";
import { buildFeed, type FeedScope } from "../../features/search/feeds.ts";
import { homeTag } from "../../server/lib/cache-tags.ts";
import { idSchema } from "../../common/id.ts";

/**
 * RSS 2.0 (Atom with `?format=atom`) of the site's, a circle's or a user's newest content in the
 * page language: `/feed.xml`, `/circles/{id}/feed.xml`, `/profile/{username}/feed.xml`, and the
 * same under `/en`. Linked from pages with `<link rel="alternate">` (app/lib/meta.ts).
 */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const app = getAppContext(context);
  const url = pageUrl(request.url);
  const t = getI18n(app.locale).t;
  let scope: FeedScope = { kind: "site" };
  if (params.circleId !== undefined) {
    const circleId = idSchema.safeParse(params.circleId);
    if (!circleId.success) throw new Response("Not Found", { status: 404 });
    scope = { kind: "circle", circleId: circleId.data };
  } else if (params.username !== undefined) {
    scope = { kind: "user", username: params.username };
  }
  tagPage(app, homeTag);
  const format = url.searchParams.get("format") === "atom" ? "atom" : "rss";
  const xml = await buildFeed(app.db, {
    scope,
    locale: app.locale,
    origin: new URL(request.url).origin,
    format,
    texts: (name) =>
      scope.kind === "site"
        ? { title: t("common:feed.site_title"), description: t("common:site.tagline") }
        : scope.kind === "circle"
          ? { title: t("common:feed.circle_title", { name }), description: t("common:feed.circle_description", { name }) }
          : { title: t("common:feed.user_title", { name }), description: t("common:feed.user_description", { name }) },
  });
  return new Response(xml, {
    headers: {
      "Content-Type": format === "atom" ? "application/atom+xml; charset=utf-8" : "application/rss+xml; charset=utf-8",
      "Cache-Control": "public, max-age=600",
    },
  });
}
