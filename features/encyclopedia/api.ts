import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { personal } from "../../server/lib/operation.ts";
import { presentEntrySummaries } from "./presenter.ts";
import { searchEntriesQuery } from "./schema.ts";
import { AppError } from "../../common/app-error.ts";
import { loadReadableEntry, searchEntries } from "./service.ts";
import { recordEntryView } from "./views.ts";
import { beaconPixel, beaconVisitor } from "../writings/views.ts";

const entryParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

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

  /** The view beacon of an entry's page (an image: cached pages and pages without JavaScript count too). */
  api.get("/api/encyclopedia/entries/:id/view.gif", { schema: { hide: true, params: entryParams } }, async (request, reply) => {
    const viewer = await request.viewer();
    const key = beaconVisitor(request, reply, viewer);
    try {
      const { row } = await loadReadableEntry(app.db, viewer, request.params.id);
      if (key) await recordEntryView({ db: app.db }, row.id, key, app.now());
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
    }
    return reply.header("cache-control", "no-store").type("image/gif").send(beaconPixel);
  });
}
