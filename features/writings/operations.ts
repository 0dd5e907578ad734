import { z } from "zod";
import { idSchema } from "../../common/id.ts";
import { defineOperation, noContent } from "../../server/lib/operation.ts";
import {
  draftAnswerSchema,
  presentWriting,
  presentWritingListPage,
  writingAnswerSchema,
  writingDetails,
  writingListPageSchema,
  type WritingDetails,
} from "./presenter.ts";
import { listWritings, type ReadingRow } from "./queries.ts";
import { createWritingSchema, draftKeySchema, feedTabValues, saveDraftSchema, updateWritingSchema } from "./schema.ts";
import { createWriting, deleteWriting, loadReadableWriting, updateWriting } from "./service.ts";
import { saveDraft } from "./drafts.ts";
import type { CircleAccess } from "../circles/policy.ts";
import type { Executor } from "../../server/db/client.ts";
import type { Viewer } from "../accounts/viewer.ts";
import { paywallFor } from "../paywall/service.ts";
import { splitPaywall } from "../paywall/split.ts";

/*
 * Writings operations: the lists of the API (features/writings/api.ts; pages read the same queries
 * in their loaders); publishing, editing, deleting and saving a draft, served by the API and the
 * pages (the editor app/routes/write.tsx, the reading page app/routes/writing.tsx).
 */

const writingParams = z.object({ id: idSchema });

/** A writing as the API answers it: the row, the viewer's access and its details, read here so the presenter stays pure. */
interface LoadedWriting {
  row: ReadingRow & { markdown: string };
  access: CircleAccess;
  details: WritingDetails;
  payToView: { price: number; unlocked: boolean } | null;
}

/**
 * Pay-to-view: a reader who has not unlocked gets the free part only (the HTML stored for the
 * writing, the Markdown cut at its paywall line); the entitled get the paid part after it.
 */
async function loadedWriting(db: Executor, viewer: Viewer | null, id: number): Promise<LoadedWriting> {
  const { row, access } = await loadReadableWriting(db, viewer, id);
  const paywall = await paywallFor(db, viewer, row, access);
  const shown = !paywall
    ? row
    : paywall.entitled
      ? { ...row, html: `${row.html}${paywall.paidHtml ?? ""}` }
      : { ...row, markdown: splitPaywall(row.markdown, paywall.price).free };
  return {
    row: shown,
    access,
    details: await writingDetails(db, row),
    payToView: paywall ? { price: paywall.price, unlocked: paywall.entitled } : null,
  };
}

const presentLoaded = ({ row, access, details, payToView }: LoadedWriting, { viewer }: { viewer: Viewer | null }) => ({
  ...presentWriting(viewer, row, access, details),
  pay_to_view: payToView,
});

/** The writing API's answer: the writing, and its pay-to-view price and whether the viewer reads all of it (null: free). */
const writingApiAnswerSchema = writingAnswerSchema.extend({
  pay_to_view: z.object({ price: z.number().int(), unlocked: z.boolean() }).nullable(),
});

/**
 * Publishes an article, a serialized article (a new series, or with `series_id` the next part of
 * one of the author's series), a post, or with `translation_of` another language version.
 */
export const publishWriting = defineOperation({
  name: "publishWriting",
  input: { params: z.object({ cid: idSchema }), body: createWritingSchema },
  viewer: "signed-in",
  run: (services, viewer, { params, body }) => createWriting({ db: services.db }, viewer, params.cid, body),
  present: (created: { id: number; url: string }) => created,
  response: z.strictObject({ id: z.number(), url: z.string() }),
  failures: ["not_found", "forbidden", "validation_failed", "language_version_exists", "content_too_complex", "rendering_busy"],
});

/** A writing with its versions, series and the viewer's allowed actions. */
export const readWriting = defineOperation({
  name: "readWriting",
  input: { params: writingParams },
  viewer: "optional",
  run: (services, viewer, { params }) => loadedWriting(services.db, viewer, params.id),
  present: presentLoaded,
  response: writingApiAnswerSchema,
  failures: ["not_found"],
});

/** Edits a writing (its author); a stale `version` answers 409 `edit_conflict` with the current one. */
export const editWriting = defineOperation({
  name: "editWriting",
  input: { params: writingParams, body: updateWritingSchema },
  viewer: "signed-in",
  run: async (services, viewer, { params, body }) => {
    const row = await updateWriting({ db: services.db }, viewer, params.id, body);
    return loadedWriting(services.db, viewer, row.id);
  },
  present: presentLoaded,
  response: writingApiAnswerSchema,
  failures: ["not_found", "forbidden", "validation_failed", "edit_conflict", "content_too_complex", "rendering_busy"],
});

/** Saves one of the viewer's drafts; a stale `version` answers 409 `draft_conflict` with both versions. */
export const saveDraftOperation = defineOperation({
  name: "saveDraft",
  input: { params: z.object({ key: draftKeySchema }), body: saveDraftSchema },
  viewer: "signed-in",
  run: (services, viewer, { params, body }) => saveDraft({ db: services.db }, viewer.id, params.key, body),
  present: (draft) => draft,
  response: draftAnswerSchema,
  failures: ["draft_conflict", "draft_limit_reached", "validation_failed"],
});

const cursor = z.string().max(40).optional();

/** A circle's writings, newest first, paged by cursor (`type`: articles or posts). */
export const listCircleWritings = defineOperation({
  name: "listCircleWritings",
  input: {
    params: z.object({ cid: idSchema }),
    query: z.object({ type: z.enum(["articles", "posts"]).optional(), cursor }),
  },
  viewer: "optional",
  run: (services, viewer, { params, query }) =>
    listWritings(services.db, viewer, {
      tab: "all",
      circleId: params.cid,
      types: query.type === "posts" ? ["post"] : query.type === "articles" ? ["article", "serial"] : undefined,
      cursor: query.cursor,
      locale: services.locale,
    }),
  present: presentWritingListPage,
  response: writingListPageSchema,
  failures: [],
});

/** The home feed: latest, hot, all or follow, paged by cursor. */
export const listFeed = defineOperation({
  name: "listFeed",
  input: { query: z.object({ tab: z.enum(feedTabValues).default("latest"), cursor }) },
  viewer: "optional",
  run: (services, viewer, { query }) =>
    listWritings(services.db, viewer, { tab: query.tab, cursor: query.cursor, locale: services.locale }),
  present: presentWritingListPage,
  response: writingListPageSchema,
  failures: [],
});

/** Deletes a writing for good (its author or the circle's moderators); the page then goes to the circle. */
export const deleteWritingOperation = defineOperation({
  name: "deleteWriting",
  input: { params: writingParams },
  viewer: "signed-in",
  run: (services, viewer, { params }) => deleteWriting({ db: services.db }, viewer, params.id),
  present: () => null,
  response: noContent,
  failures: ["not_found", "forbidden"],
});
