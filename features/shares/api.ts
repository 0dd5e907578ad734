import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { idSchema } from "../../common/id.ts";
import QRCode from "qrcode";
import { AppError } from "../../common/app-error.ts";
import { safeNextPath } from "../../common/locale.ts";
import { beaconVisitor } from "../writings/views.ts";
import { recordShare } from "./service.ts";

const params = z.object({ type: z.string().min(1).max(32), id: idSchema });

/** Shares of any subject of the registry, and the QR code of a page of this site for phones. */
export async function sharesApi(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ["interactions"];

  api.post(
    "/api/subjects/:type/:id/share/",
    {
      schema: {
        tags,
        summary: "Count a share of a subject (once per visitor, subject and day)",
        params,
        body: z.strictObject({}).nullish(),
        response: { 200: z.object({ share_count: z.number().int() }) },
      },
    },
    async (request, reply) => {
      const viewer = await request.viewer();
      const visitor = beaconVisitor(request, reply, viewer);
      if (!visitor) throw new AppError("bad_request");
      const { shareCount } = await recordShare(app.db, viewer, visitor, request.params.type, request.params.id);
      reply.header("cache-control", "no-store");
      return { share_count: shareCount };
    },
  );

  api.get(
    "/api/qr.svg",
    {
      schema: {
        tags,
        summary: "The QR code (SVG) of a page of this site",
        querystring: z.object({ path: z.string().min(1).max(500) }),
        response: { 200: z.string().describe("image/svg+xml") },
      },
    },
    async (request, reply) => {
      const path = safeNextPath(request.query.path);
      if (!path) throw new AppError("bad_request");
      const svg = await QRCode.toString(`${request.protocol}://${request.host}${path}`, { type: "svg", margin: 1, width: 168 });
      reply.header("content-type", "image/svg+xml; charset=utf-8").header("cache-control", "public, max-age=86400");
      return reply.send(svg);
    },
  );
}
