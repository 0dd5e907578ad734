import { z } from "zod";
import { idSchema } from "../../common/id.ts";
import { defineOperation } from "../../server/lib/operation.ts";
import { linkLanguages, linkStatuses } from "./constants.ts";
import { linkQuerySchema, linkReviewSchema, linkSuggestionSchema } from "./schema.ts";
import { listApprovedLinks, listLinksForReview, listOwnSuggestions, reviewLink, suggestLink, type LinkRow } from "./service.ts";

/* Friend links: the API (features/links/api.ts), `/link` and `/admin/links`. */

export const linkAnswerSchema = z.strictObject({
  id: z.number(),
  name: z.string(),
  url: z.string(),
  description: z.string(),
  language: z.enum(linkLanguages),
  status: z.enum(linkStatuses),
  suggested_by: z.string().nullable(),
  review_note: z.string(),
  created_at: z.string(),
});
export type PresentedLink = z.infer<typeof linkAnswerSchema>;

export function presentLink(row: LinkRow): PresentedLink {
  return {
    id: row.id,
    name: row.name,
    url: row.url,
    description: row.description,
    language: row.language,
    status: row.status,
    suggested_by: row.suggestedBy,
    review_note: row.reviewNote,
    created_at: new Date(row.createdAt).toISOString(),
  };
}

/** What visitors see of a listed link: no suggester, no review note. */
export const publicLinkSchema = linkAnswerSchema.pick({ id: true, name: true, url: true, description: true, language: true });
export function presentPublicLink(row: LinkRow): z.infer<typeof publicLinkSchema> {
  return { id: row.id, name: row.name, url: row.url, description: row.description, language: row.language };
}

const listAnswer = z.strictObject({ results: z.array(linkAnswerSchema) });

/** The listed friend links (anyone). */
export const listLinksOperation = defineOperation({
  name: "listFriendLinks",
  input: {},
  viewer: "optional",
  run: (services) => listApprovedLinks(services.db),
  present: (rows: LinkRow[]) => ({ results: rows.map(presentPublicLink) }),
  response: z.strictObject({ results: z.array(publicLinkSchema) }),
  failures: [],
});

/** Suggest a friend link (signed in; five a day; a site moderator's is listed at once). */
export const suggestLinkOperation = defineOperation({
  name: "suggestFriendLink",
  input: { body: linkSuggestionSchema },
  viewer: "signed-in",
  run: (services, viewer, { body }) => suggestLink({ db: services.db, now: services.now() }, viewer, body),
  present: presentLink,
  response: linkAnswerSchema,
  failures: ["validation_failed", "rate_limited"],
  unexpected: "link_failed",
});

/** The viewer's own suggestions. */
export const listOwnSuggestionsOperation = defineOperation({
  name: "listOwnFriendLinkSuggestions",
  input: {},
  viewer: "signed-in",
  run: (services, viewer) => listOwnSuggestions(services.db, viewer),
  present: (rows: LinkRow[]) => ({ results: rows.map(presentLink) }),
  response: listAnswer,
  failures: [],
});

/** Links for review (site moderators). */
export const listLinksForReviewOperation = defineOperation({
  name: "listFriendLinksForReview",
  input: { query: linkQuerySchema },
  viewer: "signed-in",
  run: (services, viewer, { query }) => listLinksForReview(services.db, viewer, query.status),
  present: (rows: LinkRow[]) => ({ results: rows.map(presentLink) }),
  response: listAnswer,
  failures: ["forbidden"],
});

/** Approve or reject a link (site moderators). */
export const reviewLinkOperation = defineOperation({
  name: "reviewFriendLink",
  input: { params: z.object({ id: idSchema }), body: linkReviewSchema },
  viewer: "signed-in",
  run: (services, viewer, { params, body }) =>
    reviewLink({ db: services.db, now: services.now() }, viewer, params.id, body, services.client.address),
  present: presentLink,
  response: linkAnswerSchema,
  failures: ["forbidden", "not_found", "validation_failed", "reason_required"],
  unexpected: "link_failed",
});
