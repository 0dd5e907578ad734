import { useEffect } from "react";
import { data, Form, Link, redirect, useSearchParams } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/book-write";
import { assertFormCsrf, formFailure, getAppContext, here, keptValues, readUploadForm } from "../lib/context.server.ts";
import { dispatchIntent, formAction, requireSignedIn, type FormFailure, type FormPost } from "../../server/lib/operation.ts";
import { circleIdOf, tagCirclePage, withFormToken } from "../lib/circle-pages.server.ts";
import { bookWritePath, editableBookOf, orNotFound } from "../lib/book-pages.server.ts";
import { localizePath, type Locale } from "../../common/locale.ts";
import { AppError } from "../../common/app-error.ts";
import { authorize } from "../../common/policy.ts";
import { pageMeta } from "../lib/meta.ts";
import { useFormValidation } from "../lib/use-form-validation.ts";
import { chapterBackupScope, settleSubmittedBackup } from "../lib/use-local-backup.ts";
import { FormField, describedBy } from "../components/form-field.tsx";
import { FormAlert } from "../components/circle-settings-layout.tsx";
import { ConfirmButton } from "../components/confirm-button.tsx";
import { ChapterManager } from "../components/chapter-manager.tsx";
import { bookStylesheets } from "../components/book-parts.tsx";
import { requireCircle } from "../../features/circles/access.server.ts";
import { getCircleRow } from "../../features/circles/service.ts";
import { localizedTexts } from "../../features/circles/presenter.ts";
import { listCategories } from "../../features/circles/categories.ts";
import { canCreateBook } from "../../features/books/policy.ts";
import {
  bookDescriptionMaxLength,
  bookInputFromForm,
  bookNameMaxLength,
  createBookSchema,
  updateBookSchema,
} from "../../features/books/schema.ts";
import { getBook } from "../../features/books/service.ts";
import {
  createBookOperation,
  deleteBookOperation,
  deleteChapterOperation,
  editBookOperation,
  editChapterOperation,
} from "../../features/books/operations.ts";
import { storeImage } from "../../features/attachments/service.ts";
import { acceptedImageTypes, maxImageBytes } from "../../features/attachments/constants.ts";
import "../../features/books/catalog.ts";
import "../../common/i18n-forms.ts";

export const meta: Route.MetaFunction = ({ location, loaderData }) =>
  pageMeta(location, loaderData?.book ? "books:write.edit_title" : "books:write.new_title");

export const links = () => [...bookStylesheets];

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

/** New book (`/circles/{id}/write/book`) and its editing page (`…/write/book/{book}`: texts, state, chapters, deletion). */
export async function loader({ context, params, request }: Route.LoaderArgs) {
  const app = getAppContext(context);
  if (!app.viewer) throw new AppError("not_authenticated");
  const circleId = circleIdOf(request, params.circleId);
  if (params.bookId) {
    const { row } = await editableBookOf(app, request, params.circleId, params.bookId);
    const [book, categories, circle] = await Promise.all([
      getBook(app.db, app.viewer, row.id),
      listCategories(app.db, row.circleId),
      getCircleRow(app.db, row.circleId),
    ]);
    return withFormToken(app, { circle: { id: row.circleId, name: localizedTexts(circle!, app.locale).name }, categories, book });
  }
  const access = await orNotFound(request, () => requireCircle(app.db, app.viewer, circleId, "view", { signedIn: true }));
  authorize(app.viewer, canCreateBook(app.viewer, access));
  await tagCirclePage(app, circleId);
  const circle = await getCircleRow(app.db, circleId);
  return withFormToken(app, {
    circle: { id: circleId, name: localizedTexts(circle!, app.locale).name },
    categories: await listCategories(app.db, circleId),
    book: null,
  });
}

type Confirm = "complete" | "resume" | "delete_book" | `delete_chapter:${number}`;

const idField = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" && /^\d{1,9}$/.test(value) ? Number(value) : null;
};

/**
 * The book page's forms, by `intent`: `save` (create or edit: the API's operations through their
 * form adapter, the cover posted as a file), `complete` / `resume` and `delete_chapter` /
 * `delete_book` (asked first: the answer carries `confirmed=1`), `move` (a chapter's Up/Down
 * without JavaScript). Failures answer the form with its message and what was typed.
 */
export async function action({ context, params, request }: Route.ActionArgs) {
  const app = getAppContext(context);
  const viewer = requireSignedIn(app.viewer);
  const circleId = circleIdOf(request, params.circleId);
  // Every form of these pages is multipart (the book form carries the cover); the limit is the cover's plus the texts.
  const form = await readUploadForm(request, maxImageBytes + 32 * 1024);
  const values = keptValues(form, ["name", "description"]);
  const confirmed = form.get("confirmed") === "1";
  const ask = (confirm: Confirm) => ({ confirm });
  const failed = (failure: FormFailure) =>
    data<FormFailureAnswer>({ formError: failure.formError, fieldErrors: failure.fieldErrors, values }, { status: failure.status });
  try {
    assertFormCsrf(app, form);
    const bookId = params.bookId ? (await editableBookOf(app, request, params.circleId, params.bookId)).row.id : null;
    const post: FormPost = { app, request, form, params };
    const save = async () => {
      const cover = await postedCover(app, viewer.id, form);
      if (!bookId)
        return formAction(createBookOperation, {
          params: () => ({ cid: circleId }),
          body: () => ({ ...bookInputFromForm(form), cover: cover ?? null }),
          done: (_created, _post, { result }) => redirect(`${bookWritePath(app, result.circleId, result.id)}?notice=created`),
          failed,
        })(post);
      return formAction(editBookOperation, {
        params: () => ({ id: bookId }),
        body: () => ({ ...bookInputFromForm(form), cover }),
        done: () => ({ notice: "saved" as const }),
        failed,
      })(post);
    };
    if (!bookId) return await dispatchIntent(post, { save });
    const setState = (intent: "complete" | "resume") => async () => {
      if (!confirmed) return ask(intent);
      return formAction(editBookOperation, {
        params: () => ({ id: bookId }),
        body: () => ({ state: intent === "complete" ? "completed" : "updating" }),
        done: () => ({ notice: intent === "complete" ? ("completed" as const) : ("resumed" as const) }),
        failed,
      })(post);
    };
    const chapterOf = () => {
      const chapterId = idField(form, "chapter_id");
      if (chapterId === null) throw new AppError("bad_request");
      return chapterId;
    };
    return await dispatchIntent(post, {
      save,
      complete: setState("complete"),
      resume: setState("resume"),
      move: () => {
        const chapterId = chapterOf();
        const number = idField(form, "number");
        if (number === null) throw new AppError("bad_request");
        return formAction(editChapterOperation, {
          params: () => ({ id: bookId, chapter_id: chapterId }),
          body: () => ({ number }),
          done: (chapter) => ({ notice: "moved" as const, moved: { title: chapter.title, number: chapter.number, id: chapter.id } }),
          failed,
        })(post);
      },
      delete_chapter: async () => {
        const chapterId = chapterOf();
        if (!confirmed) return ask(`delete_chapter:${chapterId}`);
        return formAction(deleteChapterOperation, {
          params: () => ({ id: bookId, chapter_id: chapterId }),
          done: () => ({ notice: "chapter_deleted" as const }),
          failed,
        })(post);
      },
      delete_book: async () => {
        if (!confirmed) return ask("delete_book");
        return formAction(deleteBookOperation, {
          params: () => ({ id: bookId }),
          done: (_answer, _post, { result }) => redirect(`${here(app, `/circles/${result.circleId}`)}?tab=books`),
          failed,
        })(post);
      },
    });
  } catch (error) {
    if (error instanceof Error && !(error instanceof AppError)) throw error;
    return formFailure(app, error, values);
  }
}

/** The cover chosen in the form, stored (checked by its bytes, re-encoded); null to remove it ("remove" ticked), undefined to keep it. */
async function postedCover(app: ReturnType<typeof getAppContext>, ownerId: number, form: FormData): Promise<string | null | undefined> {
  const file = form.get("cover");
  if (!(file instanceof File) || file.size === 0) return form.get("remove_cover") === "on" ? null : undefined;
  if (file.size > maxImageBytes) throw new AppError("image_too_large");
  const stored = await storeImage(
    { db: app.db, files: app.files },
    { ownerId, bytes: Buffer.from(await file.arrayBuffer()), purpose: "cover", maxDimension: 1200 },
  );
  return stored.fileId;
}

type FormFailureAnswer = { formError?: string; fieldErrors?: Record<string, string>; values: Record<string, string> };

type ActionAnswer = {
  notice?: "saved" | "completed" | "resumed" | "moved" | "chapter_deleted";
  moved?: { title: string; number: number; id: number };
  confirm?: Confirm;
  formError?: string;
  fieldErrors?: Record<string, string>;
  values?: Record<string, string>;
};

export default function BookWrite({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("books");
  const locale = i18n.language as Locale;
  const [params] = useSearchParams();
  const { circle, categories, book, csrfToken } = loaderData;
  const answer = (actionData ?? {}) as ActionAnswer;
  const { errors, onSubmit } = useFormValidation(book ? updateBookSchema : createBookSchema, bookInputFromForm, answer.fieldErrors);
  const kept = answer.values ?? {};
  const path = localizePath(book ? `/circles/${circle.id}/write/book/${book.id}` : `/circles/${circle.id}/write/book`, locale);
  const chosen = new Set(book?.categories.map((category) => category.id) ?? []);
  const noticeKey =
    answer.notice ?? (params.get("notice") === "created" ? "created" : params.get("notice") === "chapter_added" ? "chapter_added" : null);
  const notice =
    noticeKey === "moved" && answer.moved
      ? t("write.chapter_moved", { title: answer.moved.title, number: answer.moved.number })
      : noticeKey === "chapter_added"
        ? t("chapter_editor.added", { number: params.get("number") ?? "" })
        : noticeKey === "completed"
          ? t("write.completed_notice")
          : noticeKey === "resumed"
            ? t("write.resumed_notice")
            : noticeKey
              ? t(`write.${noticeKey}`)
              : null;
  // A chapter was published from this tab: the browser's backup of what it submitted is done.
  const addedTo = noticeKey === "chapter_added" && book ? book.id : null;
  useEffect(() => {
    if (addedTo !== null) settleSubmittedBackup(chapterBackupScope(addedTo));
  }, [addedTo]);
  const allCategories = categories.flatMap((category) => [
    { ...category, depth: 0 },
    ...category.children.map((child) => ({ ...child, depth: 1 })),
  ]);
  return (
    <section className="panel book-write" aria-labelledby="book-write-title">
      <p>
        <Link to={localizePath(`/circles/${circle.id}`, locale)}>← {circle.name}</Link>
        {book ? (
          <>
            {" · "}
            <Link to={localizePath(`/circles/${circle.id}/books/${book.id}`, locale)}>{t("write.view_book")}</Link>
          </>
        ) : null}
      </p>
      <h1 id="book-write-title" className="page-title">
        {book ? `${t("write.edit_title")} · ${book.name}` : t("write.new_title")}
      </h1>
      {notice ? (
        <p className="notice" role="status">
          {notice}
        </p>
      ) : null}
      {book ? null : <p className="muted">{t("write.intro")}</p>}
      <FormAlert message={answer.formError} />
      <Form
        method="post"
        action={path}
        encType="multipart/form-data"
        noValidate
        onSubmit={onSubmit}
        aria-label={book ? t("write.edit_title") : t("write.new_title")}
      >
        <input type="hidden" name="csrftoken" value={csrfToken} />
        <FormField id="book-name" label={t("write.name")} error={errors.name}>
          <input
            id="book-name"
            name="name"
            // Without JavaScript the refused form opens at the name (focused and scrolled to).
            autoFocus={Boolean(answer.fieldErrors?.name)}
            className="text-input"
            defaultValue={kept.name ?? book?.name ?? ""}
            maxLength={bookNameMaxLength}
            required
            {...describedBy("book-name", errors.name)}
          />
        </FormField>
        <FormField id="book-description" label={t("write.description")} error={errors.description}>
          <textarea
            id="book-description"
            name="description"
            autoFocus={!answer.fieldErrors?.name && Boolean(answer.fieldErrors?.description)}
            className="text-input text-area"
            rows={5}
            defaultValue={kept.description ?? book?.description ?? ""}
            maxLength={bookDescriptionMaxLength}
            {...describedBy("book-description", errors.description)}
          />
        </FormField>
        <FormField id="book-cover" label={t("write.cover")} hint={t("write.cover_hint")} error={errors.cover}>
          {book?.cover ? (
            <img className="book-cover book-cover-small" src={book.cover} alt={t("write.current_cover")} width={90} height={120} />
          ) : null}
          <input
            id="book-cover"
            name="cover"
            type="file"
            accept={acceptedImageTypes}
            {...describedBy("book-cover", errors.cover, t("write.cover_hint"))}
          />
          {book?.cover ? (
            <label className="choice">
              <input type="checkbox" name="remove_cover" />
              <span>{t("write.remove_cover")}</span>
            </label>
          ) : null}
        </FormField>
        <fieldset className="form-field choice-group">
          <legend>{t("write.categories")}</legend>
          {allCategories.length === 0 ? <p className="muted">{t("write.no_categories")}</p> : null}
          {allCategories.map((category) => (
            <label key={category.id} className="choice" data-depth={category.depth}>
              <input type="checkbox" name="categories" value={category.id} defaultChecked={chosen.has(category.id)} />
              <span>{category.depth ? `— ${category.name}` : category.name}</span>
            </label>
          ))}
          {errors.categories ? (
            <div className="form-error" role="alert" data-field-error="book-categories">
              {errors.categories}
            </div>
          ) : null}
        </fieldset>
        <button type="submit" name="intent" value="save" className="button button-primary">
          {book ? t("write.save") : t("write.create")}
        </button>
      </Form>
      {book ? (
        <>
          <section aria-labelledby="book-state-title" className="book-state">
            <h2 id="book-state-title">{t("write.state_title")}</h2>
            <p data-testid="book-state">{t("write.state_current", { state: t(`state.${book.state}`) })}</p>
            {book.state === "updating" ? (
              <ConfirmButton
                id="complete"
                action={path}
                csrfToken={csrfToken}
                intent="complete"
                label={t("write.complete")}
                question={t("write.complete_question")}
                confirmLabel={t("write.yes")}
                cancelLabel={t("write.no")}
                asked={answer.confirm === "complete"}
                cancelTo={path}
              />
            ) : (
              <ConfirmButton
                id="resume"
                action={path}
                csrfToken={csrfToken}
                intent="resume"
                label={t("write.resume")}
                question={t("write.resume_question")}
                confirmLabel={t("write.confirm")}
                cancelLabel={t("write.cancel")}
                asked={answer.confirm === "resume"}
                cancelTo={path}
              />
            )}
          </section>
          <ChapterManager
            circleId={circle.id}
            book={book}
            csrfToken={csrfToken}
            action={path}
            askedDelete={answer.confirm?.startsWith("delete_chapter:") ? Number(answer.confirm.split(":")[1]) : null}
            focusChapterId={answer.moved?.id ?? null}
          />
          <section className="danger-zone" aria-labelledby="delete-book-title">
            <h2 id="delete-book-title">{t("write.delete_book")}</h2>
            <ConfirmButton
              id="delete-book"
              action={path}
              csrfToken={csrfToken}
              intent="delete_book"
              label={t("write.delete_book")}
              question={t("write.delete_book_question", { name: book.name })}
              confirmLabel={t("write.delete_forever")}
              cancelLabel={t("write.cancel")}
              danger
              asked={answer.confirm === "delete_book"}
              cancelTo={path}
            />
          </section>
        </>
      ) : null}
    </section>
  );
}
