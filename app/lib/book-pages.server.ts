import { redirect } from "react-router";
import type { AppContext } from "../context.ts";
import { AppError } from "../../common/app-error.ts";
import { localizePath, pageUrl } from "../../common/locale.ts";
import { notFound, tagPage } from "./context.server.ts";
import { tagCirclePage } from "./circle-pages.server.ts";
import { loadBook } from "../../features/books/service.ts";
import { can } from "../../features/books/policy.ts";
import { subjectPageTags } from "../../server/lib/cache-tags.ts";

/** A numeric id of a book path (`:bookId`, `:chapterId`), or the 404 screen. */
export function pathIdOf(request: Request, raw: string | undefined): number {
  if (!raw || !/^\d{1,9}$/.test(raw)) notFound(request);
  return Number(raw);
}

/** The guards' "not found" (a hidden circle, an unknown id) becomes the 404 screen with the path. */
export async function orNotFound<T>(request: Request, body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") notFound(request);
    throw error;
  }
}

/**
 * An item requested under another circle than its own answers 301 to the same path under its
 * circle (the legacy /books/{id} paths arrive under circle 1).
 */
export function redirectToOwnCircle(request: Request, requestedCircleId: number, circleId: number): void {
  if (requestedCircleId === circleId) return;
  const url = pageUrl(request.url);
  const path = url.pathname.replace(
    /^(\/en)?\/circles\/\d+/,
    (_match, english: string | undefined) => `${english ?? ""}/circles/${circleId}`,
  );
  throw redirect(path + url.search, 301);
}

/**
 * The guard of the book write pages: visitors log in first (and come back), whatever the ids; a
 * book the viewer may not see is the 404 screen; one they see but may not edit is the 403 screen.
 */
export async function editableBookOf(app: AppContext, request: Request, rawCircleId: string | undefined, rawBookId: string | undefined) {
  if (!app.viewer) throw new AppError("not_authenticated");
  const circleId = pathIdOf(request, rawCircleId);
  const bookId = pathIdOf(request, rawBookId);
  const loaded = await orNotFound(request, () => loadBook(app.db, app.viewer, bookId));
  redirectToOwnCircle(request, circleId, loaded.row.circleId);
  if (!can(app.viewer, "edit", loaded.resource)) throw new AppError("forbidden");
  await tagCirclePage(app, loaded.row.circleId);
  tagPage(app, ...subjectPageTags("book", bookId));
  return loaded;
}

/** Paths of the write pages, in the page's language. */
export function bookWritePath(app: AppContext, circleId: number, bookId?: number): string {
  return localizePath(bookId ? `/circles/${circleId}/write/book/${bookId}` : `/circles/${circleId}/write/book`, app.locale);
}
