import type { CircleTabView, CircleTabViewProps } from "../../lib/circle-tab-view.ts";
import { CircleBooks } from "../circle-books.tsx";

type BooksTabData = Parameters<typeof CircleBooks>[0]["list"];

/** A circle's books, paged by links. */
function BooksTab({ data, circleId, canWrite, sort, pinControls }: CircleTabViewProps) {
  return (
    <CircleBooks
      circleId={circleId}
      list={data as BooksTabData}
      canWrite={canWrite}
      sort={sort}
      actions={(book) => pinControls("book", book.id)}
    />
  );
}

export const views: Record<string, CircleTabView> = { books: BooksTab };
