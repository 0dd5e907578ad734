import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { authorize } from "../../common/policy.ts";
import { can } from "./policy.ts";
import { readAttachment, storeImage, uploadsPerMinute } from "./service.ts";
import { readUploadedFile } from "./multipart.server.ts";
import { maxImageBytes } from "./constants.ts";
import type { FileStore } from "./file-store.server.ts";

/** Image work is costly: one address may upload 30 images a minute. */
export const uploadRateLimit = { max: uploadsPerMinute, timeWindow: "1 minute" } as const;

export interface AttachmentsApiOptions {
  files: FileStore;
  /** Renders the site's 404 screen for an unknown file id (absent in API-only tests: JSON 404 then). */
  notFoundPage: () => ((request: FastifyRequest, reply: FastifyReply) => Promise<unknown>) | undefined;
}

export async function attachmentsApi(app: FastifyInstance, { files, notFoundPage }: AttachmentsApiOptions): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();

  /**
   * Uploaded files. Ids are random, so a URL never changes meaning: cached for a year as immutable.
   * The type is the one sniffed and re-encoded at upload; `nosniff` and a sandboxing CSP keep a
   * browser from ever treating the bytes as a page.
   */
  api.get("/attach/:fileId", { schema: { params: z.object({ fileId: z.string() }), hide: true } }, async (request, reply) => {
    const found = await readAttachment(app.db, files, request.params.fileId);
    if (!found) {
      const render = notFoundPage();
      if (render) return render(request, reply);
      return app.apiNotFound(request, reply);
    }
    const { attachment, bytes } = found;
    return reply
      .header("content-type", attachment.contentType)
      .header("content-length", String(bytes.length))
      .header("cache-control", "public, max-age=31536000, immutable")
      .header("etag", `"${attachment.fileId}"`)
      .header("x-content-type-options", "nosniff")
      .header("content-security-policy", "default-src 'none'; sandbox")
      .header("content-disposition", "inline")
      .header("cross-origin-resource-policy", "same-site")
      .send(bytes);
  });

  /** An image for the writing editor and other forms: JPG or PNG up to 2 MB, signed-in users only. */
  api.post("/api/uploads/", { schema: { hide: true }, config: { rateLimit: uploadRateLimit } }, async (request, reply) => {
    const viewer = await request.viewer();
    authorize(viewer, can(viewer, "upload"));
    const file = await readUploadedFile(request, { maxBytes: maxImageBytes });
    const stored = await storeImage({ db: app.db, files }, { ownerId: viewer!.id, bytes: file.bytes, purpose: "upload" });
    return reply.status(201).header("cache-control", "no-store").send({
      file_id: stored.fileId,
      url: stored.url,
      content_type: stored.contentType,
      width: stored.width,
      height: stored.height,
      size: stored.size,
    });
  });
}
