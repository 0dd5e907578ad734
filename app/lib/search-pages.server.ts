import type { AppContext } from "../context.ts";
import { searchQuerySchema } from "../../features/search/operations.ts";
import { search, searchableCircles, type SearchPage } from "../../features/search/service.ts";
import { searchTabTypes, type SearchType } from "../../features/search/registry.ts";

export interface SearchPageData {
  params: {
    q: string;
    type: "all" | SearchType;
    circleId: number | null;
    language: "zh-CN" | "en" | null;
    sort: "relevance" | "newest";
    cursor: string | null;
  };
  page: SearchPage;
  failed: boolean;
  circles: { id: number; name: string }[];
  /** The page's tabs: "all", then every searchable kind in its declared order (the search registration's `tabOrder`). */
  tabs: ("all" | SearchType)[];
}

const empty: SearchPage = { results: [], nextCursor: null, totalEstimate: 0, didYouMean: null };

/** The search page's data: the same query schema as the API; a failure is the page's "searching failed", not an error screen. */
export async function searchPageFor(app: AppContext, searchParams: URLSearchParams): Promise<SearchPageData> {
  const query = searchQuerySchema.parse(Object.fromEntries(searchParams));
  const params: SearchPageData["params"] = {
    q: (query.q ?? "").replaceAll("\u0000", "").trim().slice(0, 200),
    type: query.type ?? "all",
    circleId: query.circle_id ?? null,
    language: query.language ?? null,
    sort: query.sort ?? "relevance",
    cursor: query.cursor ?? null,
  };
  const tabs: SearchPageData["tabs"] = ["all", ...searchTabTypes()];
  // Search tolerates a short lag: the read replica when it is caught up (server/lib/read-routing.ts).
  const circles = params.q ? await searchableCircles(app.readDb, app.viewer, app.locale) : [];
  if (!params.q) return { params, page: empty, failed: false, circles, tabs };
  try {
    const page = await search(app.readDb, app.viewer, {
      query: params.q,
      type: params.type,
      circleId: params.circleId,
      language: params.language,
      sort: params.sort,
      cursor: params.cursor,
      locale: app.locale,
    });
    return { params, page, failed: false, circles, tabs };
  } catch (error) {
    console.error("search failed", error);
    return { params, page: empty, failed: true, circles, tabs };
  }
}
