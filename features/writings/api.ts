import type { FastifyInstance } from "fastify";
import { jsonRoute } from "../../server/lib/operation.ts";
import {
  deleteWritingOperation,
  editWriting,
  listCircleWritings,
  listFeed,
  publishWriting,
  readWriting,
  saveDraftOperation,
} from "./operations.ts";
import { documentBodyLimit } from "../content/schema.ts";
import { deleteDraftOperation, getDraftOperation, listDraftsOperation, previewOperation } from "./draft-operations.ts";

export { documentBodyLimit };

/** Previews render the whole pipeline: a writer typing gets one every second or two, not a flood. */
export const previewRateLimit = { max: 60, timeWindow: "1 minute" } as const;

export async function writingsApi(app: FastifyInstance): Promise<void> {
  const tags = ["writings"];

  jsonRoute(app, "POST", "/api/circles/:cid/writings/", publishWriting, {
    status: 201,
    tags,
    summary: "Publish an article, serialized article (a new series, or `series_id`: the next part), post, or another language version",
    bodyLimit: documentBodyLimit,
    cache: "none",
  });

  jsonRoute(app, "GET", "/api/circles/:cid/writings/", listCircleWritings, {
    tags,
    summary: "A circle's writings, newest first, paged by cursor",
  });
  jsonRoute(app, "GET", "/api/writings/", listFeed, { tags, summary: "The home feed: latest, hot, all or follow, paged by cursor" });

  jsonRoute(app, "GET", "/api/writings/:id/", readWriting, {
    tags,
    summary: "A writing with its versions, series and the viewer's allowed actions",
  });
  jsonRoute(app, "PATCH", "/api/writings/:id/", editWriting, {
    tags,
    summary: "Edit a writing (its author); a stale `version` answers 409 edit_conflict with the current one",
    bodyLimit: documentBodyLimit,
  });

  jsonRoute(app, "DELETE", "/api/writings/:id/", deleteWritingOperation, {
    status: 204,
    tags,
    summary: "Delete a writing for good (its author or the circle's moderators)",
    cache: "none",
  });

  jsonRoute(app, "POST", "/api/content/preview/", previewOperation, {
    tags,
    summary: "Render Markdown through the content pipeline (signed in)",
    bodyLimit: documentBodyLimit,
    config: { rateLimit: previewRateLimit },
  });

  jsonRoute(app, "GET", "/api/drafts/", listDraftsOperation, { tags, summary: "The viewer's drafts, last saved first" });

  jsonRoute(app, "GET", "/api/drafts/:key/", getDraftOperation, { tags, summary: "One draft" });

  jsonRoute(app, "PUT", "/api/drafts/:key/", saveDraftOperation, {
    tags,
    summary: "Save a draft; `version` is the last one seen (0 for new); a stale one answers 409 draft_conflict with both",
    bodyLimit: documentBodyLimit,
  });

  jsonRoute(app, "DELETE", "/api/drafts/:key/", deleteDraftOperation, { status: 204, cache: "none", tags, summary: "Delete a draft" });
}
