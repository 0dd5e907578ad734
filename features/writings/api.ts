import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { AppError } from "../../common/app-error.ts";
import { jsonRoute, noContent, personal, requireSignedIn } from "../../server/lib/operation.ts";
import {
  deleteWritingOperation,
  editWriting,
  listCircleWritings,
  listFeed,
  publishWriting,
  readWriting,
  saveDraftOperation,
} from "./operations.ts";
import { renderMarkdown } from "../content/render.server.ts";
import { documentBodyLimit } from "../content/schema.ts";
import { deleteDraft, getDraft, listDrafts } from "./drafts.ts";
import { draftAnswerSchema, renderedPreviewSchema } from "./presenter.ts";
import { draftKeySchema, previewSchema } from "./schema.ts";

const draftParams = z.object({ key: draftKeySchema });

export { documentBodyLimit };

/** Previews render the whole pipeline: a writer typing gets one every second or two, not a flood. */
export const previewRateLimit = { max: 60, timeWindow: "1 minute" } as const;

export async function writingsApi(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
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

  api.post(
    "/api/content/preview/",
    {
      bodyLimit: documentBodyLimit,
      schema: {
        tags,
        summary: "Render Markdown through the content pipeline (signed in)",
        body: previewSchema,
        response: { 200: renderedPreviewSchema },
      },
      config: { rateLimit: previewRateLimit },
    },
    async (request, reply) => {
      requireSignedIn(await request.viewer());
      const rendered = await renderMarkdown(request.body.content, { locale: request.locale });
      personal(reply);
      return { html: rendered.html, toc: rendered.toc, text_length: rendered.textLength, reading_minutes: rendered.readingMinutes };
    },
  );

  api.get(
    "/api/drafts/",
    {
      schema: {
        tags,
        summary: "The viewer's drafts, last saved first",
        response: { 200: z.strictObject({ drafts: z.array(draftAnswerSchema) }) },
      },
    },
    async (request, reply) => {
      const viewer = requireSignedIn(await request.viewer());
      personal(reply);
      return { drafts: await listDrafts(app.db, viewer.id) };
    },
  );

  api.get(
    "/api/drafts/:key/",
    { schema: { tags, summary: "One draft", params: draftParams, response: { 200: draftAnswerSchema } } },
    async (request, reply) => {
      const viewer = requireSignedIn(await request.viewer());
      const draft = await getDraft(app.db, viewer.id, request.params.key);
      if (!draft) throw new AppError("not_found");
      personal(reply);
      return draft;
    },
  );

  jsonRoute(app, "PUT", "/api/drafts/:key/", saveDraftOperation, {
    tags,
    summary: "Save a draft; `version` is the last one seen (0 for new); a stale one answers 409 draft_conflict with both",
    bodyLimit: documentBodyLimit,
  });

  api.delete(
    "/api/drafts/:key/",
    { schema: { tags, summary: "Delete a draft", params: draftParams, response: { 204: noContent } } },
    async (request, reply) => {
      const viewer = requireSignedIn(await request.viewer());
      if (!(await deleteDraft({ db: app.db }, viewer.id, request.params.key))) throw new AppError("not_found");
      return reply.status(204).send(null);
    },
  );
}
