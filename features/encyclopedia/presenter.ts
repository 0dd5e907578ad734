import type { Executor } from "../../server/db/client.ts";
import type { Locale } from "../../common/locale.ts";
import { circleRowById } from "../circles/tree.server.ts";
import { localizedTexts } from "../circles/presenter.ts";
import { entryPath } from "./paths.ts";
import type { EntrySummary } from "./service.ts";

/** An entry as the search API and the picker show it: names, its circle's name in the viewer's language, its page. */
export async function presentEntrySummaries(db: Executor, entries: EntrySummary[], locale: Locale) {
  return Promise.all(
    entries.map(async (entry) => {
      const circle = await circleRowById(db, entry.circleId);
      return {
        id: entry.id,
        name: entry.name,
        aliases: entry.aliases,
        disambiguation: entry.disambiguation,
        language: entry.language,
        circle_id: entry.circleId,
        circle_name: circle ? localizedTexts(circle, locale).name : "",
        url: entryPath(entry),
      };
    }),
  );
}

export type PresentedEntrySummary = Awaited<ReturnType<typeof presentEntrySummaries>>[number];
