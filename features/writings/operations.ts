import { z } from "zod";
import { idSchema } from "../../common/id.ts";
import { defineOperation, noContent } from "../../server/lib/operation.ts";
import { presentWritingListPage, writingListPageSchema } from "./presenter.ts";
import { listWritings } from "./queries.ts";
import { feedTabValues } from "./schema.ts";
import { deleteWriting } from "./service.ts";

/*
 * Writings operations: the lists of the API (features/writings/api.ts; pages read the same queries
 * in their loaders) and deleting, served by the API and the reading page (app/routes/writing.tsx).
 */

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
  input: { params: z.object({ id: idSchema }) },
  viewer: "signed-in",
  run: (services, viewer, { params }) => deleteWriting({ db: services.db }, viewer, params.id),
  present: () => null,
  response: noContent,
  failures: ["not_found", "forbidden"],
});
