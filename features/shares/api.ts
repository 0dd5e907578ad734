import type { FastifyInstance } from "fastify";
import { jsonRoute } from "../../server/lib/operation.ts";
import { qrCodeOperation, shareOperation } from "./operations.ts";

/** Shares of any subject of the registry, and the QR code of a page of this site for phones. */
export async function sharesApi(app: FastifyInstance): Promise<void> {
  const tags = ["interactions"];
  jsonRoute(app, "POST", "/api/subjects/:type/:id/share/", shareOperation, {
    tags,
    summary: "Count a share of a subject (once per visitor, subject and day)",
    cache: "no-store",
  });
  jsonRoute(app, "GET", "/api/qr.svg", qrCodeOperation, {
    tags,
    summary: "The QR code (SVG) of a page of this site",
    contentType: "image/svg+xml; charset=utf-8",
    publicMaxAge: 86_400,
  });
}
