import QRCode from "qrcode";
import { z } from "zod";
import { AppError } from "../../common/app-error.ts";
import { safeNextPath } from "../../common/locale.ts";
import { defineOperation } from "../../server/lib/operation.ts";
import { subjectParamsSchema } from "../subjects/schema.ts";
import { recordShare } from "./service.ts";

/*
 * Shares as operations: counting a share (once per visitor, subject and day: the services'
 * `visitor()`, the user or the visitor cookie) served by `POST /api/subjects/{type}/{id}/share/`
 * and by the page form `/subjects/{type}/{id}/share`; the QR code of a page of this site by
 * `GET /api/qr.svg` (an image's source, so no form).
 */

const shareAnswer = z.object({ share_count: z.number().int() });

export const shareOperation = defineOperation({
  name: "shareSubject",
  input: { params: subjectParamsSchema, body: z.strictObject({}).nullish() },
  viewer: "optional",
  run: (services, viewer, { params }) => recordShare(services.db, viewer, services.visitor(), params.type, params.id, services.now()),
  present: (result) => ({ share_count: result.shareCount }),
  response: shareAnswer,
  failures: ["not_found"],
});

/** The QR code's size in CSS pixels (the share panel shows it at this size). */
export const qrSize = 168;

export const qrCodeOperation = defineOperation({
  name: "qrCode",
  input: { query: z.object({ path: z.string().min(1).max(500) }) },
  viewer: "optional",
  run: async (services, _viewer, { query }) => {
    // Only a path of this site (never `//host` or a scheme): the code must not point elsewhere.
    const path = safeNextPath(query.path);
    if (!path || !services.origin) throw new AppError("bad_request");
    return QRCode.toString(`${services.origin}${path}`, { type: "svg", margin: 1, width: qrSize });
  },
  present: (svg) => svg,
  response: z.string().describe("image/svg+xml"),
  failures: ["bad_request"],
});
