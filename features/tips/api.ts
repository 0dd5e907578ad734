import type { FastifyInstance } from "fastify";
import { jsonRoute } from "../../server/lib/operation.ts";
import { tipOperation, tippersOperation } from "./operations.ts";

export async function tipsApi(app: FastifyInstance): Promise<void> {
  const tags = ["wallet"];
  jsonRoute(app, "POST", "/api/subjects/:type/:id/tips/", tipOperation, {
    status: 201,
    tags,
    summary: "Tip a writing, an answer or a book in sinecoin (Idempotency-Key required); tipping oneself is refused",
  });
  jsonRoute(app, "GET", "/api/subjects/:type/:id/tips/", tippersOperation, { tags, summary: "Who tipped, and how many people" });
}
