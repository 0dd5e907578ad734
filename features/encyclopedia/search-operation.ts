import { z } from "zod";
import { defineOperation } from "../../server/lib/operation.ts";
import { presentEntrySummaries } from "./presenter.ts";
import { searchEntriesQuery } from "./schema.ts";
import { searchEntries } from "./service.ts";

export const entrySummariesAnswer = z.strictObject({
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
});

/** The writing editor's entry picker: entries by name or alias in circles the viewer may read. */
export const searchEntriesOperation = defineOperation({
  name: "searchEntries",
  input: { query: searchEntriesQuery },
  viewer: "optional",
  // The summaries name their circle (a lookup), so they are presented here rather than by the pure presenter.
  run: async (services, viewer, { query }) => {
    const entries = await searchEntries(services.db, viewer, { q: query.q, circleId: query.circle, limit: query.limit });
    return { results: await presentEntrySummaries(services.db, entries, services.locale) };
  },
  present: (answer) => answer,
  response: entrySummariesAnswer,
  failures: [],
});
