import { randomBytes } from "node:crypto";
import { and, count, eq, sql } from "drizzle-orm";
import sharp from "sharp";
import type { Database } from "../../server/db/client.ts";
import { attachments } from "../../server/db/schema/index.ts";
import { AppError } from "../../common/app-error.ts";
import { inTransaction, type ServiceOptions } from "../../server/lib/transactions.ts";
import { isValidFileKey, type FileStore } from "./file-store.server.ts";
import { sniffImageType, type ImageType } from "./sniff.ts";
import { attachmentUrl, maxImageBytes } from "./constants.ts";

export type Attachment = typeof attachments.$inferSelect;

/** Services that write files take the file store beside the database. */
export interface AttachmentOptions extends ServiceOptions {
  files: FileStore;
}

export interface StoreImageInput {
  ownerId: number | null;
  bytes: Buffer;
  /** What the image is for (`avatar`, `upload`, `circle_logo`, `cover`…): kept on the row. */
  purpose: string;
  /** A square centre crop of this many pixels (avatars, logos). */
  square?: number;
  /** Otherwise the longest side is scaled down to this (never up). Default 2048. */
  maxDimension?: number;
}

export interface StoredImage {
  fileId: string;
  url: string;
  contentType: ImageType;
  size: number;
  width: number;
  height: number;
}

/** Decompression bombs stop here: a 2 MB PNG may claim billions of pixels. */
const maxInputPixels = 40_000_000;

/** Images one account may store a minute through page forms, as `/api/uploads/` allows one address. */
export const uploadsPerMinute = 30;

/**
 * Page forms that take an image (a chat message) are not behind the upload route's per-address
 * limit: this counts the account's images of the last minute instead (`rate_limited` beyond).
 */
export async function assertUploadAllowance(db: Database, ownerId: number): Promise<void> {
  const [row] = await db
    .select({ stored: count() })
    .from(attachments)
    .where(and(eq(attachments.ownerId, ownerId), sql`${attachments.createdAt} > now() - interval '1 minute'`));
  if ((row?.stored ?? 0) >= uploadsPerMinute) throw new AppError("rate_limited");
}

/** 24 base64url characters: 144 random bits. */
export function newFileId(): string {
  return randomBytes(18).toString("base64url");
}

/**
 * Checks an uploaded image (JPG or PNG by its magic bytes, at most 2 MB, decodable), re-encodes it
 * with sharp (metadata such as EXIF and GPS dropped, orientation applied), stores the bytes and
 * records the attachment row. Throws `image_too_large` (413), `image_type_not_allowed` (415) or
 * `image_invalid` (400). Image work happens before the transaction; the row joins the caller's.
 */
export async function storeImage(options: AttachmentOptions, input: StoreImageInput): Promise<StoredImage> {
  const encoded = await reencodeImage(input);
  const fileId = newFileId();
  await options.files.put(fileId, encoded.bytes, encoded.contentType);
  try {
    await inTransaction(options, async (tx) => {
      await tx.db.insert(attachments).values({
        fileId,
        ownerId: input.ownerId,
        purpose: input.purpose.slice(0, 40),
        contentType: encoded.contentType,
        size: encoded.bytes.length,
        width: encoded.width,
        height: encoded.height,
      });
    });
  } catch (error) {
    await options.files.delete(fileId).catch(() => undefined);
    throw error;
  }
  return {
    fileId,
    url: attachmentUrl(fileId),
    contentType: encoded.contentType,
    size: encoded.bytes.length,
    width: encoded.width,
    height: encoded.height,
  };
}

/** The checks and re-encoding of storeImage, without storing anything. */
export async function reencodeImage(
  input: Pick<StoreImageInput, "bytes" | "square" | "maxDimension">,
): Promise<{ bytes: Buffer; contentType: ImageType; width: number; height: number }> {
  if (input.bytes.length > maxImageBytes) throw new AppError("image_too_large");
  const contentType = sniffImageType(input.bytes);
  if (!contentType) throw new AppError("image_type_not_allowed");
  try {
    let pipeline = sharp(input.bytes, { limitInputPixels: maxInputPixels, failOn: "error" }).rotate();
    if (input.square) pipeline = pipeline.resize(input.square, input.square, { fit: "cover", position: "centre" });
    else {
      const side = input.maxDimension ?? 2048;
      pipeline = pipeline.resize(side, side, { fit: "inside", withoutEnlargement: true });
    }
    // sharp writes no metadata unless asked (withMetadata/keepExif), so EXIF, GPS and comments go.
    pipeline = contentType === "image/png" ? pipeline.png({ compressionLevel: 9 }) : pipeline.jpeg({ quality: 86, mozjpeg: true });
    const { data, info } = await pipeline.toBuffer({ resolveWithObject: true });
    return { bytes: data, contentType, width: info.width, height: info.height };
  } catch {
    throw new AppError("image_invalid");
  }
}

export async function getAttachment(db: Database, fileId: string): Promise<Attachment | null> {
  if (!isValidFileKey(fileId)) return null;
  const [row] = await db.select().from(attachments).where(eq(attachments.fileId, fileId));
  return row ?? null;
}

/** The attachment and its bytes, or null when either is missing. */
export async function readAttachment(
  db: Database,
  files: FileStore,
  fileId: string,
): Promise<{ attachment: Attachment; bytes: Buffer } | null> {
  const attachment = await getAttachment(db, fileId);
  if (!attachment) return null;
  const bytes = await files.get(fileId);
  return bytes ? { attachment, bytes } : null;
}

/** Removes the row, then the bytes (a file left behind by a crash is harmless; a row without bytes answers 404). */
export async function deleteAttachment(options: AttachmentOptions, fileId: string): Promise<void> {
  if (!isValidFileKey(fileId)) return;
  await inTransaction(options, async (tx) => {
    await tx.db.delete(attachments).where(eq(attachments.fileId, fileId));
    tx.afterCommit(() => options.files.delete(fileId));
  });
}

/** The file id inside an /attach/{file_id} URL, or null. */
export function fileIdOfUrl(url: string | null | undefined): string | null {
  const match = /^\/attach\/([A-Za-z0-9_-]{16,64})$/.exec(url ?? "");
  return match ? match[1]! : null;
}
