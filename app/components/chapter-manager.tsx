import { useEffect, useRef, useState, type DragEvent } from "react";
import { Form, Link, useSubmit } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import { localizePath, type Locale } from "../../common/locale.ts";
import type { BookView } from "../../features/books/presenter.ts";
import { ConfirmButton } from "./confirm-button.tsx";
import "../../features/books/catalog.ts";

interface ChapterManagerProps {
  circleId: number;
  book: BookView;
  csrfToken: string;
  /** The book's write page (every form here posts to it). */
  action: string;
  /** The chapter whose deletion the server asked to confirm (a post without JavaScript). */
  askedDelete: number | null;
  /** The chapter just moved by its buttons: its remaining move button gets the focus back. */
  focusChapterId: number | null;
}

/**
 * The numbered chapter list of a book's write page: reorder by dragging (JavaScript) or with each
 * chapter's Up and Down buttons (keyboard, and plain form posts without JavaScript); edit; delete
 * after the irreversible-deletion question.
 */
export function ChapterManager({ circleId, book, csrfToken, action, askedDelete, focusChapterId }: ChapterManagerProps) {
  const { t, i18n } = useTranslation("books");
  const locale = i18n.language as Locale;
  const submit = useSubmit();
  const list = useRef<HTMLOListElement>(null);
  const [dragged, setDragged] = useState<number | null>(null);
  const [target, setTarget] = useState<number | null>(null);
  const base = `/circles/${circleId}/write/book/${book.id}`;

  useEffect(() => {
    if (focusChapterId === null) return;
    list.current?.querySelector<HTMLButtonElement>(`[data-chapter-id="${focusChapterId}"] button[data-move]`)?.focus();
  }, [focusChapterId, book.chapters]);

  const move = (chapterId: number, number: number) =>
    submit(
      { csrftoken: csrfToken, intent: "move", chapter_id: String(chapterId), number: String(number) },
      { method: "post", action, encType: "multipart/form-data", preventScrollReset: true },
    );

  const dragProps = (chapterId: number, number: number) => ({
    draggable: true,
    onDragStart: (event: DragEvent<HTMLLIElement>) => {
      event.dataTransfer.effectAllowed = "move";
      event.dataTransfer.setData("text/plain", String(chapterId));
      setDragged(chapterId);
    },
    onDragOver: (event: DragEvent<HTMLLIElement>) => {
      if (dragged === null) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = "move";
      setTarget(number);
    },
    onDrop: (event: DragEvent<HTMLLIElement>) => {
      event.preventDefault();
      const moving = dragged;
      setDragged(null);
      setTarget(null);
      if (moving !== null && moving !== chapterId) move(moving, number);
    },
    onDragEnd: () => {
      setDragged(null);
      setTarget(null);
    },
  });

  const moveForm = (chapterId: number, number: number, direction: "up" | "down", title: string, current: number) => (
    <Form method="post" action={action} encType="multipart/form-data" className="inline-form" preventScrollReset>
      <input type="hidden" name="csrftoken" value={csrfToken} />
      <input type="hidden" name="chapter_id" value={chapterId} />
      <input type="hidden" name="number" value={number} />
      <button
        type="submit"
        name="intent"
        value="move"
        className="button"
        data-move={direction}
        aria-label={t(direction === "up" ? "write.move_up_label" : "write.move_down_label", { number: current, title })}
      >
        {t(direction === "up" ? "write.move_up" : "write.move_down")}
      </button>
    </Form>
  );

  return (
    <section aria-labelledby="chapters-title" className="chapter-manager">
      <h2 id="chapters-title">{t("write.chapters")}</h2>
      {book.state === "updating" ? (
        <p>
          <Link className="button button-primary" to={localizePath(`${base}/add-chapter`, locale)}>
            {t("write.add_chapter")}
          </Link>
        </p>
      ) : (
        <p className="muted">{t("write.completed_no_add")}</p>
      )}
      {book.chapters.length === 0 ? (
        <p className="muted">{t("write.no_chapters")}</p>
      ) : (
        <>
          <p className="muted" id="reorder-hint">
            {t("write.reorder_hint")}
          </p>
          <ol ref={list} className="chapter-list-manage" aria-describedby="reorder-hint">
            {book.chapters.map((chapter, index) => (
              <li
                key={chapter.id}
                data-chapter-id={chapter.id}
                data-number={chapter.number}
                className={
                  [dragged === chapter.id ? "dragging" : "", target === chapter.number && dragged !== chapter.id ? "drop-target" : ""]
                    .join(" ")
                    .trim() || undefined
                }
                {...dragProps(chapter.id, chapter.number)}
              >
                <span
                  className="drag-handle"
                  aria-hidden="true"
                  title={t("write.drag_label", { number: chapter.number, title: chapter.title })}
                />
                <span className="chapter-manage-title">
                  <span className="chapter-number">{t("read.chapter_number", { number: chapter.number })}</span>{" "}
                  <span className="chapter-manage-name">{chapter.title}</span>
                </span>
                <span className="chapter-manage-actions">
                  {index > 0 ? moveForm(chapter.id, chapter.number - 1, "up", chapter.title, chapter.number) : null}
                  {index < book.chapters.length - 1
                    ? moveForm(chapter.id, chapter.number + 1, "down", chapter.title, chapter.number)
                    : null}
                  <Link
                    className="button"
                    to={localizePath(`${base}/chapter/${chapter.id}`, locale)}
                    aria-label={t("write.edit_chapter_label", { number: chapter.number, title: chapter.title })}
                  >
                    {t("write.edit_chapter")}
                  </Link>
                  <ConfirmButton
                    id={`delete-chapter-${chapter.id}`}
                    action={action}
                    csrfToken={csrfToken}
                    intent="delete_chapter"
                    fields={{ chapter_id: chapter.id }}
                    label={t("write.delete_chapter")}
                    ariaLabel={t("write.delete_chapter_label", { number: chapter.number, title: chapter.title })}
                    question={t("write.delete_chapter_question", { number: chapter.number, title: chapter.title })}
                    confirmLabel={t("write.delete_forever")}
                    cancelLabel={t("write.cancel")}
                    danger
                    asked={askedDelete === chapter.id}
                    cancelTo={action}
                  />
                </span>
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  );
}
