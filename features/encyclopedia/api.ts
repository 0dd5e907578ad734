import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { personal } from "../../server/lib/operation.ts";
import { presentEntrySummaries } from "./presenter.ts";
import { searchEntriesQuery } from "./schema.ts";
import { searchEntries } from "./service.ts";

/**
 * The encyclopedia API (the writing editor's picker for now; the entry editor comes with the full
 * encyclopedia). Answers depend on the viewer, so they are never cached by others.
 */
export async function encyclopediaApi(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ["encyclopedia"];

  api.get(
    "/api/encyclopedia/entries/",
    {
      schema: {
        tags,
        summary:
          "Entries whose name or an alias contains `q` (name prefixes first; at most 10), in circles the viewer may read; an empty `q` lists the `circle`'s newest",
        querystring: searchEntriesQuery,
        response: {
          200: z.strictObject({
            results: z.array(
              z.strictObject({
                id: z.number(),
                name: z.string(),
                aliases: z.array(z.string()),
                disambiguation: z.string().nullable(),
                language: z.string(),
                circle_id: z.number(),
                circle_name: z.string(),
                url: z.string(),
              }),
            ),
          }),
        },
      },
    },
    async (request, reply) => {
      const viewer = await request.viewer();
      const entries = await searchEntries(app.db, viewer, {
        q: request.query.q,
        circleId: request.query.circle,
        limit: request.query.limit,
      });
      personal(reply);
      return { results: await presentEntrySummaries(app.db, entries, request.locale) };
    },
  );
}
