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
import {
  entriesByName,
  entryFamily,
  entryVersions,
  getEntry,
  loadReadableEntry,
  versionIdOf,
} from "../../features/encyclopedia/service.ts";
import { entryLanguageValues, type EntryLanguage } from "../../features/encyclopedia/schema.ts";
import { bracketed, entryPath, entryVersionPath } from "../../features/encyclopedia/paths.ts";
import { translator } from "../../common/i18n.ts";
import { data, redirect } from "react-router";
import { localizePath } from "../../common/locale.ts";
import { AppError } from "../../common/app-error.ts";
import { can } from "../../features/encyclopedia/policy.ts";
import { entryContributors, getRevision, versionChangedSince } from "../../features/encyclopedia/revisions.ts";
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
export async function entryPage(app: AppContext, request: Request, params: { circleId?: string; entryId?: string; lang?: string }) {
  const circleId = circleIdOf(request, params.circleId);
  const askedId = pathIdOf(request, params.entryId);
  const entryId = await shownVersionId(app, request, circleId, askedId, params.lang);
  const entry = await orNotFound(request, () => getEntry(app.db, app.viewer, entryId));
  const { row, access } = await loadReadableEntry(app.db, app.viewer, entryId);
  const [family, history, circle, named, versions] = await Promise.all([
    entryFamily(app.db, app.viewer, row),
    entryContributors(app.db, row.id),
    getCircleRow(app.db, entry.circleId),
    entriesByName(app.db, app.viewer, row.circleId, row.name, { except: row.id, limit: 20 }),
    entryVersions(app.db, row),
  ]);
  const groupId = row.translationOf ?? row.id;
  // Its own language versions are no other senses of its name.
  const senses = named.filter((sense) => (sense.translationOf ?? sense.id) !== groupId);
  const others = versions.filter((version) => version.id !== row.id);
  const changes = await Promise.all(
    others.map(async (version) => ({ version, change: await versionChangedSince(app.db, version, row.updatedAt) })),
  );
  tagPage(
    app,
    ...subjectPageTags("entry", entry.id),
    contentTag("entry", groupId),
    ...others.map((version) => contentTag("entry", version.id)),
    ...family.ancestors.map((ancestor) => contentTag("entry", ancestor.id)),
    ...family.children.map((child) => contentTag("entry", child.id)),
    ...senses.map((sense) => contentTag("entry", sense.id)),
  );
  await tagCirclePage(app, entry.circleId);
  const asked = pageUrl(request.url).searchParams.get("revision");
  let oldRevision: {
    id: number;
    number: number;
    createdAt: string;
    name: string;
    html: string;
    photos: { file_id: string; caption: string }[];
  } | null = null;
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
        photos: snapshot.photos ?? [],
      };
  }
  // The page shows the stored HTML; the meta description is its excerpt (formulas as their text,
  // never TeX), or the Markdown source's first words when it has no paragraph.
  const { description, ...shown } = entry;
  const summary = metaDescription(excerptOfHtml(entry.descriptionHtml, 160, entry.language) || description.replace(/[#*_`>|]+/g, " "));
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
    versions: versions.map((version) => ({ id: version.id, language: version.language, name: version.name, path: entryPath(version) })),
    /** The languages it has no version in yet (links to write them). */
    missingLanguages: entryLanguageValues.filter((language) => !versions.some((version) => version.language === language)),
    groupId,
    // What "Cite this" cites, as JSON (the page renders the formats, and again with today's date once hydrated: cached pages grow old).
    cited: {
      entryId: row.id,
      revisionId: row.revisionId ?? 0,
      title: row.disambiguation ? row.name + bracketed(row.disambiguation, row.language) : row.name,
      language: row.language,
      site: translator(row.language)("encyclopedia:cite.site"),
      savedAt: row.updatedAt.toISOString(),
      url: `${pageUrl(request.url).origin}${localizePath(entryPath(row), row.language)}?revision=${row.revisionId ?? 0}`,
      accessed: app.now().toISOString(),
    },
    changedVersions: changes.flatMap(({ version, change }) =>
      change
        ? [
            {
              language: version.language,
              edits: change.edits,
              diff: `/circles/${row.circleId}/encyclopedia/${version.id}/history?from=${change.from}&to=${change.to}`,
            },
          ]
        : [],
    ),
    comments: await commentsSectionOf(app, request, { type: "entry", id: entry.id }),
    // Only its author and moderators can open a hidden entry: visitors never need the lookup.
    moderation: app.viewer ? await moderationNotice(app.db, "entry", entry.id) : null,
    permissions: {
      edit: can(app.viewer, "edit", access, row),
      delete: can(app.viewer, "delete", access, row),
      protect: can(app.viewer, "protect", access, row),
      addVersion: can(app.viewer, "create", access),
    },
  };
  return withActionBar(app, page, { type: "entry", id: entry.id, authorId: row.creatorId });
}

/** What a missing language version's 404 screen links to: writing it, and the entry as it is. */
export interface MissingVersion {
  missingVersion: { language: EntryLanguage; name: string; write: string; read: string };
}

/**
 * Which entry row a reading address shows. `/{entry_id}/{lang}`: the group's version in that
 * language (a missing one is the 404 screen with a link to write it); a later version's own id
 * answers 301 to its address under the group; the group's id without `lang` shows its version
 * in the interface language when there is one (the English interface opens the English version).
 */
async function shownVersionId(app: AppContext, request: Request, circleId: number, askedId: number, lang: string | undefined) {
  if (lang !== undefined && !(entryLanguageValues as readonly string[]).includes(lang)) notFound(request);
  const { row } = await orNotFound(request, () => loadReadableEntry(app.db, app.viewer, askedId));
  redirectToOwnCircle(request, circleId, row.circleId);
  const search = pageUrl(request.url).search;
  if (row.translationOf !== null)
    throw redirect(localizePath(entryVersionPath(row.circleId, row.translationOf, lang ?? row.language), app.locale) + search, 301);
  if (lang === undefined) {
    if (row.language === app.locale) return row.id;
    return versionIdOf(app.db, row.id, app.locale).catch((error: unknown) => {
      if (error instanceof AppError && error.code === "not_found") return row.id;
      throw error;
    });
  }
  if (lang === row.language) return row.id;
  try {
    return await versionIdOf(app.db, row.id, lang as EntryLanguage);
  } catch (error) {
    if (!(error instanceof AppError && error.code === "not_found")) throw error;
    tagPage(app, contentTag("entry", row.id));
    const missing: MissingVersion = {
      missingVersion: {
        language: lang as EntryLanguage,
        name: row.name,
        write: localizePath(`/circles/${row.circleId}/encyclopedia/${row.id}/edit?language=${lang}`, app.locale),
        read: localizePath(entryPath(row), app.locale),
      },
    };
    throw data(missing, { status: 404, statusText: "Not Found" });
  }
}

/** The entry an entry page's form acts on: the version of its `lang`, else the entry of its id. */
export async function actedEntryId(app: AppContext, request: Request, params: { entryId?: string; lang?: string }): Promise<string> {
  const id = pathIdOf(request, params.entryId);
  if (params.lang === undefined) return String(id);
  if (!(entryLanguageValues as readonly string[]).includes(params.lang)) notFound(request);
  return String(await orNotFound(request, () => versionIdOf(app.db, id, params.lang as EntryLanguage)));
}
