import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { AppError } from "../../common/app-error.ts";
import { getCirclePage, listCircleTree } from "./service.ts";

export async function circlesApi(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get("/api/circles/", async (request) => ({ circles: await listCircleTree(app.db, request.locale) }));

  api.get("/api/circles/:id/", { schema: { params: z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) }) } }, async (request) => {
    const page = await getCirclePage(app.db, request.params.id, request.locale);
    if (!page) throw new AppError("not_found");
    return page;
  });
}
