import { randomUUID } from "node:crypto";
import { data, redirect } from "react-router";
import { paywallFor } from "../../features/paywall/service.ts";
import { openRedPackets } from "../../features/red-packets/service.ts";
import { moderationNotice } from "../../features/reports/service.ts";
import type { AppContext } from "../context.ts";
import { AppError } from "../../common/app-error.ts";
import { localizePath, pageUrl } from "../../common/locale.ts";
import { csrfForForm, notFound, privatePageHeaders, tagPage } from "./context.server.ts";
import { circleIdOf, tagCirclePage } from "./circle-pages.server.ts";
import { presentWriting, writingDetails } from "../../features/writings/presenter.ts";
import { loadWritingForReading, writingContentTags } from "../../features/writings/service.ts";
import { writingPath } from "../../features/writings/paths.ts";
import { writingLanguageValues, type WritingLanguage } from "../../features/writings/schema.ts";
import { getCircleRow } from "../../features/circles/service.ts";
import { localizedTexts } from "../../features/circles/presenter.ts";
import { readableEntries } from "../../features/encyclopedia/service.ts";
import { commentsSection } from "./comment-pages.server.ts";
import { writingSubject } from "../../features/writings/subject.ts";
import { interactionSummary } from "../../features/reactions/viewer-state.ts";
import { adornmentsTag, contentTag, homeTag, subjectPageTags } from "../../server/lib/cache-tags.ts";
import { adornmentsOf } from "../../features/shop/service.ts";
import { refundRequestsOf } from "../../features/paywall/refunds.ts";

/**
 * The reading page's data: the writing (or its `lang` version; the group's first version without
 * `lang` gives its version in the interface language when there is one), its author with the viewer's
 * follow state, and the CSRF token for signed-in viewers (their copy is private; visitors' copies
 * are cached and tagged). A writing under another circle answers 301 to its own circle; a post
 * under /writing (or an article under /posts) 301 to its own path; a missing language version and
 * a writing the viewer may not read are the 404 screen.
 */
export async function readingPage(
  app: AppContext,
  request: Request,
  params: { circleId?: string; writingId?: string; lang?: string },
  expect: "article" | "post",
) {
  const circleId = circleIdOf(request, params.circleId);
  if (!params.writingId || !/^\d{1,9}$/.test(params.writingId)) notFound(request);
  if (params.lang !== undefined && !writingLanguageValues.includes(params.lang as WritingLanguage)) notFound(request);
  let loaded: Awaited<ReturnType<typeof loadWritingForReading>>;
  try {
    loaded = await loadWritingForReading(app.db, app.viewer, Number(params.writingId));
    if (params.lang && loaded.row.language !== params.lang) {
      const version = loaded.versions.find((candidate) => candidate.language === params.lang);
      if (!version) notFound(request);
      loaded = await loadWritingForReading(app.db, app.viewer, version.id);
    } else if (!params.lang && loaded.row.translationOf === null && loaded.row.language !== app.locale) {
      // The group's link (lists use the first version's id) opened in one interface language reads
      // the version in that language when there is one; a later version's own address stays itself.
      const version = loaded.versions.find((candidate) => candidate.language === app.locale);
      if (version) loaded = await loadWritingForReading(app.db, app.viewer, version.id);
    }
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") notFound(request);
    throw error;
  }
  const { row } = loaded;
  const own = writingPath(row, params.lang ? (params.lang as WritingLanguage) : undefined);
  const isPost = row.type === "post";
  if (row.circleId !== circleId || isPost !== (expect === "post")) {
    const target = writingPath({ ...row, id: Number(params.writingId) }, params.lang as WritingLanguage | undefined);
    throw redirect(localizePath(target, app.locale) + pageUrl(request.url).search, 301);
  }
  // The group's and the series' tags too: a new language version or a new part changes this page's links.
  tagPage(app, ...writingContentTags(row), ...subjectPageTags("writing", row.id), homeTag, adornmentsTag(row.authorId));
  await tagCirclePage(app, row.circleId);
  const presented = presentWriting(app.viewer, row, loaded.access, await writingDetails(app.db, row, loaded), { markdown: false });
  // Pay-to-view: the paid part joins the page only for the entitled (never on a visitor's cached copy).
  const paywall = await paywallFor(app.db, app.viewer, row, loaded.access, app.now());
  const writing = paywall?.entitled && paywall.paidHtml ? { ...presented, html: `${presented.html}${paywall.paidHtml}` } : presented;
  const following = loaded.following;
  const origin = pageUrl(request.url).origin;
  const circleRow = await getCircleRow(app.db, row.circleId);
  const circleName = circleRow ? localizedTexts(circleRow, app.locale).name : "";
  // Related entries by name; those gone or not the viewer's to read are left out.
  const relatedEntries = await readableEntries(app.db, app.viewer, loaded.relatedEntries);
  tagPage(app, ...relatedEntries.map((entry) => contentTag("entry", entry.id)));
  const comments = await commentsSection(app, request, writingSubject(row, loaded.access));
  const interactions = await interactionSummary(app.db, app.viewer, {
    type: "writing",
    id: row.id,
    authorId: row.authorId,
    tipsSwitchedOn: row.tipEnabled,
  });
  const page = {
    writing,
    following,
    own,
    origin,
    circleName,
    relatedEntries,
    comments,
    interactions,
    signedIn: app.viewer !== null,
    isAuthor: app.viewer?.id === row.authorId,
    // The badge and avatar frame the author wears (shop items) on the author card.
    authorAdornments: await adornmentsOf(app.db, row.authorId),
    paywall: paywall
      ? {
          price: paywall.price,
          entitled: paywall.entitled,
          unlocked: paywall.unlocked,
          refundable: paywall.refundableUntil !== null,
          refundRequest: paywall.refundRequest,
          // The author and moderators decide readers' refund requests here (open ones only).
          openRefundRequests:
            app.viewer && paywall.entitled && !paywall.unlocked
              ? (await refundRequestsOf(app.db, app.viewer, row.id))
                  .filter((request) => request.status === "open")
                  .map((request) => ({
                    id: request.id,
                    reader: request.reader.nickname || request.reader.username,
                    reason: request.reason,
                    price: request.price,
                  }))
              : [],
        }
      : null,
    redPackets: (await openRedPackets(app.db, row.id, app.viewer?.id ?? null, app.now())).map((packet) => ({
      id: packet.id,
      shares: packet.shares,
      remainingShares: packet.remainingShares,
      own: packet.funderId === app.viewer?.id,
      claimed: packet.claimed,
    })),
    // A fresh key per page load for the money-moving forms (a form sent twice moves money once).
    idempotencyKey: app.viewer ? randomUUID() : null,
    // Only its author and moderators open a hidden writing; they see why it is hidden.
    moderation: row.hiddenAt ? await moderationNotice(app.db, "writing", row.id) : null,
  };
  if (!app.viewer) return data({ ...page, csrfToken: null as string | null });
  const csrf = csrfForForm(app);
  return data(
    { ...page, csrfToken: csrf.token as string | null },
    { headers: { ...privatePageHeaders(), ...(csrf.setCookie ? { "Set-Cookie": csrf.setCookie } : {}) } },
  );
}
