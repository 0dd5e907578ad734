import { z } from "zod";
import { AppError } from "../../common/app-error.ts";
import { defineOperation, noContent } from "../../server/lib/operation.ts";
import { renderMarkdown } from "../content/render.server.ts";
import { deleteDraft, getDraft, listDrafts } from "./drafts.ts";
import { draftAnswerSchema, renderedPreviewSchema } from "./presenter.ts";
import { draftKeySchema, previewSchema } from "./schema.ts";

/* The editor's helpers: a Markdown preview and the viewer's drafts (saving one is `saveDraftOperation`, features/writings/operations.ts). */

const draftParams = z.object({ key: draftKeySchema });

export const previewOperation = defineOperation({
  name: "previewContent",
  input: { body: previewSchema },
  viewer: "signed-in",
  run: (services, _viewer, { body }) => renderMarkdown(body.content, { locale: services.locale }),
  present: (rendered) => ({
    html: rendered.html,
    toc: rendered.toc,
    text_length: rendered.textLength,
    reading_minutes: rendered.readingMinutes,
  }),
  response: renderedPreviewSchema,
  failures: ["content_too_large", "content_too_complex", "rendering_busy", "server_busy"],
});

export const listDraftsOperation = defineOperation({
  name: "listDrafts",
  input: {},
  viewer: "signed-in",
  run: async (services, viewer) => ({ drafts: await listDrafts(services.db, viewer.id) }),
  present: (answer) => answer,
  response: z.strictObject({ drafts: z.array(draftAnswerSchema) }),
  failures: [],
});

export const getDraftOperation = defineOperation({
  name: "getDraft",
  input: { params: draftParams },
  viewer: "signed-in",
  run: async (services, viewer, { params }) => {
    const draft = await getDraft(services.db, viewer.id, params.key);
    if (!draft) throw new AppError("not_found");
    return draft;
  },
  present: (draft) => draft,
  response: draftAnswerSchema,
  failures: ["not_found"],
});

export const deleteDraftOperation = defineOperation({
  name: "deleteDraft",
  input: { params: draftParams },
  viewer: "signed-in",
  run: async (services, viewer, { params }) => {
    if (!(await deleteDraft({ db: services.db }, viewer.id, params.key))) throw new AppError("not_found");
  },
  present: () => null,
  response: noContent,
  failures: ["not_found"],
});
