import type { AppContext } from "../context.ts";
import { pageUrl } from "../../common/locale.ts";
import { idFromText } from "../../common/id.ts";
import { tagPage } from "./context.server.ts";
import { circleIdOf, tagCirclePage } from "./circle-pages.server.ts";
import { metaDescription } from "./book-meta.ts";
import { withActionBar } from "./interaction-pages.server.ts";
import { excerptOfHtml } from "../../features/content/excerpt.ts";
import { notFound } from "./context.server.ts";
import { orNotFound, pathIdOf, redirectToOwnCircle } from "./book-pages.server.ts";
import { moderationNotice } from "../../features/reports/service.ts";
import { entriesByName, entryFamily, getEntry, loadReadableEntry } from "../../features/encyclopedia/service.ts";
import { can } from "../../features/encyclopedia/policy.ts";
import { entryContributors, getRevision } from "../../features/encyclopedia/revisions.ts";
import { renderEntryContent } from "../../features/encyclopedia/render.server.ts";
import { getCircleRow } from "../../features/circles/service.ts";
import { localizedTexts } from "../../features/circles/presenter.ts";
import { contentTag, subjectPageTags } from "../../server/lib/cache-tags.ts";
import { commentsSectionOf } from "./comment-pages.server.ts";

/**
 * The entry page's data, with its comments. A missing entry, or one whose circle's content the viewer may not read,
 * is the 404 screen (a visitor who may see the circle is asked to sign in, like writings); an
 * entry asked for under another circle answers 301 to its own. `?revision=` shows an old revision
 * as it was saved.
 */
export async function entryPage(app: AppContext, request: Request, params: { circleId?: string; entryId?: string }) {
  const circleId = circleIdOf(request, params.circleId);
  const entryId = pathIdOf(request, params.entryId);
  const entry = await orNotFound(request, () => getEntry(app.db, app.viewer, entryId));
  redirectToOwnCircle(request, circleId, entry.circleId);
  const { row, access } = await loadReadableEntry(app.db, app.viewer, entryId);
  const [family, history, circle, senses] = await Promise.all([
    entryFamily(app.db, app.viewer, row),
    entryContributors(app.db, row.id),
    getCircleRow(app.db, entry.circleId),
    entriesByName(app.db, app.viewer, row.circleId, row.name, { except: row.id, limit: 20 }),
  ]);
  tagPage(
    app,
    ...subjectPageTags("entry", entry.id),
    ...family.ancestors.map((ancestor) => contentTag("entry", ancestor.id)),
    ...family.children.map((child) => contentTag("entry", child.id)),
    ...senses.map((sense) => contentTag("entry", sense.id)),
  );
  await tagCirclePage(app, entry.circleId);
  const asked = pageUrl(request.url).searchParams.get("revision");
  let oldRevision: { id: number; number: number; createdAt: string; name: string; html: string } | null = null;
  if (asked !== null) {
    const revisionId = idFromText(asked);
    if (revisionId === null) notFound(request);
    const { revision, snapshot } = await orNotFound(request, () => getRevision(app.db, app.viewer, row.id, revisionId));
    if (!revision.current)
      oldRevision = {
        id: revision.id,
        number: revision.number,
        createdAt: revision.createdAt,
        name: snapshot.name,
        html: await renderEntryContent(snapshot, row.language),
      };
  }
  // The page shows the stored HTML; the meta description is its excerpt (formulas as their text,
  // never TeX), or the Markdown source's first words when it has no paragraph.
  const { description, ...shown } = entry;
  const summary = metaDescription(excerptOfHtml(entry.descriptionHtml, 160) || description.replace(/[#*_`>|]+/g, " "));
  const page = {
    entry: { ...shown, createdAt: history.createdAt ?? shown.createdAt },
    summary,
    circle: { id: entry.circleId, name: circle ? localizedTexts(circle, app.locale).name : "" },
    origin: pageUrl(request.url).origin,
    ancestors: family.ancestors,
    children: family.children,
    senses,
    contributors: history.contributors,
    oldRevision,
    comments: await commentsSectionOf(app, request, { type: "entry", id: entry.id }),
    // Only its author and moderators can open a hidden entry: visitors never need the lookup.
    moderation: app.viewer ? await moderationNotice(app.db, "entry", entry.id) : null,
    permissions: {
      edit: can(app.viewer, "edit", access, row),
      delete: can(app.viewer, "delete", access, row),
      protect: can(app.viewer, "protect", access, row),
    },
  };
  return withActionBar(app, page, { type: "entry", id: entry.id, authorId: row.creatorId });
}
