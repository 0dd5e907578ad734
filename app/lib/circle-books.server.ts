import type { Database } from "../../server/db/client.ts";
import { pageUrl } from "../../common/locale.ts";
import { listCircleBooks } from "../../features/books/service.ts";

/** The circle page's books tab (`?tab=books&page=N`): its page of books, or null on other tabs and for viewers who may not read. */
export async function circleBooksTab(request: Request, circleId: number, readable: boolean, db: Database) {
  const params = pageUrl(request.url).searchParams;
  if (!readable || params.get("tab") !== "books") return null;
  const raw = params.get("page");
  const page = raw && /^\d{1,5}$/.test(raw) && Number(raw) > 0 ? Number(raw) : 1;
  return listCircleBooks(db, circleId, page, params.get("sort") === "hot" ? "hot" : "latest");
}
