import type { AppContext } from "../context.ts";
import { pageUrl } from "../../common/locale.ts";
import { tagPage } from "./context.server.ts";
import { circleIdOf, tagCirclePage } from "./circle-pages.server.ts";
import { metaDescription } from "./book-meta.ts";
import { excerptOfHtml } from "../../features/content/excerpt.ts";
import { orNotFound, pathIdOf, redirectToOwnCircle } from "./book-pages.server.ts";
import { getEntry } from "../../features/encyclopedia/service.ts";
import { moderationNotice } from "../../features/reports/service.ts";
import { getCircleRow } from "../../features/circles/service.ts";
import { localizedTexts } from "../../features/circles/presenter.ts";
import { contentTag, subjectPageTags } from "../../server/lib/cache-tags.ts";
import { data } from "react-router";
import { withFormToken } from "./circle-pages.server.ts";
import { commentsSectionOf } from "./comment-pages.server.ts";

/**
 * The entry page's data, with its comments. A missing entry, or one whose circle's content the viewer may not read,
 * is the 404 screen (a visitor who may see the circle is asked to sign in, like writings); an
 * entry asked for under another circle answers 301 to its own.
 */
export async function entryPage(app: AppContext, request: Request, params: { circleId?: string; entryId?: string }) {
  const circleId = circleIdOf(request, params.circleId);
  const entryId = pathIdOf(request, params.entryId);
  const entry = await orNotFound(request, () => getEntry(app.db, app.viewer, entryId));
  redirectToOwnCircle(request, circleId, entry.circleId);
  tagPage(app, ...subjectPageTags("entry", entry.id), ...(entry.parent ? [contentTag("entry", entry.parent.id)] : []));
  await tagCirclePage(app, entry.circleId);
  const circle = await getCircleRow(app.db, entry.circleId);
  // The page shows the stored HTML; the meta description is its excerpt (formulas as their text,
  // never TeX), or the Markdown source's first words when it has no paragraph.
  const { description, ...shown } = entry;
  const summary = metaDescription(excerptOfHtml(entry.descriptionHtml, 160) || description.replace(/[#*_`>|]+/g, " "));
  const comments = await commentsSectionOf(app, request, { type: "entry", id: entry.id });
  const page = {
    entry: shown,
    summary,
    circle: { id: entry.circleId, name: circle ? localizedTexts(circle, app.locale).name : "" },
    origin: pageUrl(request.url).origin,
    comments,
    // Only its author and moderators can open a hidden entry: visitors never need the lookup.
    moderation: app.viewer ? await moderationNotice(app.db, "entry", entry.id) : null,
  };
  // The signed in get the comment forms' CSRF token (their copy is private); visitors' copies stay cacheable.
  if (!app.viewer) return data({ ...page, csrfToken: null as string | null });
  return withFormToken(app, page);
}
