import type { CircleTabMember } from "../subjects/circle-tab.ts";
import { activeHighlights } from "../shop/service.ts";
import { listWritings } from "./queries.ts";
import { writingPath } from "./paths.ts";

/** A circle's articles or posts tab: its page of writings and the highlighted writings bought in the shop above them. */
function writingsTab(name: "articles" | "posts", order: number): CircleTabMember {
  return {
    name,
    order,
    sorted: true,
    async load(db, viewer, { circleId, sort, cursor, locale, now }) {
      const [list, highlighted] = await Promise.all([
        listWritings(db, viewer, {
          tab: sort === "hot" ? "hot" : "all",
          circleId,
          types: name === "posts" ? ["post"] : ["article", "serial"],
          cursor,
          locale,
        }),
        activeHighlights(db, circleId, now),
      ]);
      // Highlights end by the clock: a cached copy lives at most the page cache's minute past the end.
      const highlights = highlighted.map((highlight) => ({
        writing_id: highlight.writingId,
        title: highlight.title,
        path: writingPath({ id: highlight.writingId, circleId, type: highlight.type }),
      }));
      return { list, highlights };
    },
  };
}

export const writingCircleTabs = [writingsTab("articles", 10), writingsTab("posts", 30)];
