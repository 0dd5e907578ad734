import type { ReactNode } from "react";
import { Link } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import { localizePath, type Locale } from "../../common/locale.ts";
import type { BookSummary } from "../../features/books/presenter.ts";
import { EmptyState } from "./empty-state.tsx";
import { BookCard } from "./book-parts.tsx";
import "../../features/books/catalog.ts";

interface CircleBooksProps {
  circleId: number;
  list: { books: BookSummary[]; page: number; pageCount: number; total: number };
  canWrite: boolean;
  /** The sort the list was made with (kept by the pager's links). */
  sort?: "latest" | "hot";
  /** Controls shown on a card (the circle page's Pin for moderators). */
  actions?: (book: BookSummary) => ReactNode;
}

/** The books tab of a circle's page: its books, most recently updated first, paged by links. */
export function CircleBooks({ circleId, list, canWrite, sort = "latest", actions }: CircleBooksProps) {
  const { t, i18n } = useTranslation("books");
  const locale = i18n.language as Locale;
  const base = `${localizePath(`/circles/${circleId}`, locale)}?tab=books${sort === "hot" ? "&sort=hot" : ""}`;
  const pageLink = (page: number) => (page === 1 ? base : `${base}&page=${page}`);
  return (
    <div className="circle-books">
      {canWrite ? (
        <p>
          <Link className="button button-primary" to={localizePath(`/circles/${circleId}/write/book`, locale)}>
            {t("list.write_book")}
          </Link>
        </p>
      ) : null}
      {list.books.length === 0 ? (
        <EmptyState description={t("circles:page.empty_books")} />
      ) : (
        <ul className="book-cards">
          {list.books.map((book) => (
            <BookCard key={book.id} book={book} extra={actions?.(book)} />
          ))}
        </ul>
      )}
      {list.pageCount > 1 ? (
        <nav className="pager" aria-label={t("list.pagination")}>
          {list.page > 1 ? (
            <Link to={pageLink(list.page - 1)} rel="prev" preventScrollReset>
              ← {t("list.previous_page")}
            </Link>
          ) : null}
          <span>{t("list.page", { page: list.page, count: list.pageCount })}</span>
          {list.page < list.pageCount ? (
            <Link to={pageLink(list.page + 1)} rel="next" preventScrollReset>
              {t("list.next_page")} →
            </Link>
          ) : null}
        </nav>
      ) : null}
    </div>
  );
}
