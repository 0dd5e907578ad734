import type { FastifyRequest } from "fastify";
import { AppError } from "../../common/app-error.ts";

export interface UploadedFile {
  bytes: Buffer;
  /** As the client named it: for logs only, never trusted. */
  filename: string;
}

/**
 * Reads the one file of a multipart request (@fastify/multipart, registered in server/app.ts),
 * refusing more than `maxBytes` while it streams in. The global 64 KiB body limit does not apply
 * to multipart bodies; this per-route limit does. Errors: `file_required`, `image_too_large` (413),
 * `unsupported_media_type` (415) for a body that is not multipart.
 */
export async function readUploadedFile(
  request: FastifyRequest,
  options: { maxBytes: number; field?: string; tooLarge?: "image_too_large" | "payload_too_large" },
): Promise<UploadedFile> {
  const field = options.field ?? "file";
  if (!request.isMultipart()) throw new AppError("unsupported_media_type");
  try {
    for await (const part of request.parts({ limits: { fileSize: options.maxBytes, files: 1, fields: 10, fieldSize: 1024, parts: 12 } })) {
      if (part.type !== "file") continue;
      if (part.fieldname !== field) {
        part.file.resume();
        continue;
      }
      const bytes = await part.toBuffer();
      if (bytes.length === 0) throw new AppError("file_required");
      return { bytes, filename: part.filename };
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    const code = (error as { code?: string }).code;
    if (code === "FST_REQ_FILE_TOO_LARGE") throw new AppError(options.tooLarge ?? "image_too_large");
    if (code === "FST_INVALID_MULTIPART_CONTENT_TYPE") throw new AppError("unsupported_media_type");
    if (code === "FST_FILES_LIMIT" || code === "FST_PARTS_LIMIT" || code === "FST_FIELDS_LIMIT") throw new AppError("bad_request");
    throw new AppError("bad_request");
  }
  throw new AppError("file_required");
}
