import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { idSchema } from "../../common/id.ts";
import { AppError } from "../../common/app-error.ts";
import { jsonRoute, noContent, personal, requireSignedIn } from "../../server/lib/operation.ts";
import { deleteWritingOperation, listCircleWritings, listFeed } from "./operations.ts";
import { renderMarkdown } from "../content/render.server.ts";
import { deleteDraft, getDraft, listDrafts, saveDraft } from "./drafts.ts";
import { draftAnswerSchema, presentWriting, renderedPreviewSchema, writingAnswerSchema, writingDetails } from "./presenter.ts";
import { createWritingSchema, draftKeySchema, previewSchema, saveDraftSchema, updateWritingSchema } from "./schema.ts";
import { createWriting, loadReadableWriting, updateWriting } from "./service.ts";
import { beaconPixel, beaconVisitor, recordView } from "./views.ts";

const writingParams = z.object({ id: idSchema });
const circleParams = z.object({ cid: idSchema });
const draftParams = z.object({ key: draftKeySchema });

/** A 200 KiB Markdown body is up to 1.2 MB as JSON (escapes); the global 64 KiB limit is for small forms. */
export const documentBodyLimit = 1536 * 1024;

/** Previews render the whole pipeline: a writer typing gets one every second or two, not a flood. */
export const previewRateLimit = { max: 60, timeWindow: "1 minute" } as const;

export async function writingsApi(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ["writings"];

  api.post(
    "/api/circles/:cid/writings/",
    {
      bodyLimit: documentBodyLimit,
      schema: {
        tags,
        summary: "Publish an article, serialized article (part) or post, or another language version",
        params: circleParams,
        body: createWritingSchema,
        response: { 201: z.strictObject({ id: z.number(), url: z.string() }) },
      },
    },
    async (request, reply) => {
      const viewer = requireSignedIn(await request.viewer());
      const created = await createWriting({ db: app.db }, viewer, request.params.cid, request.body);
      return reply.status(201).send(created);
    },
  );

  jsonRoute(app, "GET", "/api/circles/:cid/writings/", listCircleWritings, {
    tags,
    summary: "A circle's writings, newest first, paged by cursor",
  });
  jsonRoute(app, "GET", "/api/writings/", listFeed, { tags, summary: "The home feed: latest, hot, all or follow, paged by cursor" });

  api.get(
    "/api/writings/:id/",
    {
      schema: {
        tags,
        summary: "A writing with its versions, series and the viewer's allowed actions",
        params: writingParams,
        response: { 200: writingAnswerSchema },
      },
    },
    async (request, reply) => {
      const viewer = await request.viewer();
      const { row, access } = await loadReadableWriting(app.db, viewer, request.params.id);
      personal(reply);
      return presentWriting(viewer, row, access, await writingDetails(app.db, row));
    },
  );

  api.patch(
    "/api/writings/:id/",
    {
      bodyLimit: documentBodyLimit,
      schema: {
        tags,
        summary: "Edit a writing (its author); a stale `version` answers 409 edit_conflict with the current one",
        params: writingParams,
        body: updateWritingSchema,
        response: { 200: writingAnswerSchema },
      },
    },
    async (request, reply) => {
      const viewer = requireSignedIn(await request.viewer());
      const row = await updateWriting({ db: app.db }, viewer, request.params.id, request.body);
      const { access } = await loadReadableWriting(app.db, viewer, row.id);
      personal(reply);
      return presentWriting(viewer, row, access, await writingDetails(app.db, row));
    },
  );

  jsonRoute(app, "DELETE", "/api/writings/:id/", deleteWritingOperation, {
    status: 204,
    tags,
    summary: "Delete a writing for good (its author or the circle's moderators)",
    cache: "none",
  });

  /** The view beacon: an image, so cached pages and pages without JavaScript count too. */
  api.get("/api/writings/:id/view.gif", { schema: { hide: true, params: writingParams } }, async (request, reply) => {
    const viewer = await request.viewer();
    const key = beaconVisitor(request, reply, viewer);
    try {
      const { row } = await loadReadableWriting(app.db, viewer, request.params.id);
      if (key) await recordView(app.db, row.id, key);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
    }
    return reply.header("cache-control", "no-store").type("image/gif").send(beaconPixel);
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

  api.put(
    "/api/drafts/:key/",
    {
      bodyLimit: documentBodyLimit,
      schema: {
        tags,
        summary: "Save a draft; `version` is the last one seen (0 for new); a stale one answers 409 draft_conflict with both",
        params: draftParams,
        body: saveDraftSchema,
        response: { 200: draftAnswerSchema },
      },
    },
    async (request, reply) => {
      const viewer = requireSignedIn(await request.viewer());
      personal(reply);
      return saveDraft({ db: app.db }, viewer.id, request.params.key, request.body);
    },
  );

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
