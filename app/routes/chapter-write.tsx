import { data, Link, redirect } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/chapter-write";
import { assertFormCsrf, getAppContext, notFound, readForm } from "../lib/context.server.ts";
import { dispatchIntent, failureOf, formAction, type FormFailure, type FormPost } from "../../server/lib/operation.ts";
import { withFormToken } from "../lib/circle-pages.server.ts";
import { bookWritePath, editableBookOf, orNotFound, pathIdOf } from "../lib/book-pages.server.ts";
import { localizePath, type Locale } from "../../common/locale.ts";
import { AppError } from "../../common/app-error.ts";
import { translator } from "../../common/i18n.ts";
import { pageMeta } from "../lib/meta.ts";
import { FormAlert } from "../components/circle-settings-layout.tsx";
import { ChapterEditor } from "../components/chapter-editor.tsx";
import { bookStylesheets } from "../components/book-parts.tsx";
import { contentStylesheets } from "../components/rendered-content.tsx";
import { getChapter } from "../../features/books/chapters.ts";
import { addChapterOperation, editChapterOperation } from "../../features/books/operations.ts";
import { renderMarkdown } from "../../features/content/render.server.ts";
import "../../features/books/catalog.ts";
import "../../common/i18n-forms.ts";

export const meta: Route.MetaFunction = ({ location, loaderData }) =>
  pageMeta(location, (t) =>
    loaderData?.chapter ? t("books:chapter_editor.edit_title", { number: loaderData.chapter.number }) : t("books:chapter_editor.add_title"),
  );

export const links = () => [...contentStylesheets, ...bookStylesheets];

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

/** Add a chapter (`…/write/book/{book}/add-chapter`) or edit one (`…/chapter/{chapter}`). */
export async function loader({ context, params, request }: Route.LoaderArgs) {
  const app = getAppContext(context);
  const { row } = await editableBookOf(app, request, params.circleId, params.bookId);
  if (params.chapterId) {
    const chapterId = pathIdOf(request, params.chapterId);
    const { chapter } = await orNotFound(request, () => getChapter(app.db, app.viewer, row.id, chapterId));
    return withFormToken(app, {
      viewerId: app.viewer!.id,
      book: { id: row.id, circleId: row.circleId, name: row.name, state: row.state },
      chapter: { id: chapter.id, number: chapter.number, title: chapter.title, markdown: chapter.markdown },
    });
  }
  if (row.state === "completed") throw new AppError("book_completed");
  return withFormToken(app, {
    viewerId: app.viewer!.id,
    book: { id: row.id, circleId: row.circleId, name: row.name, state: row.state },
    chapter: null,
  });
}

/**
 * The chapter form, by `intent`: `preview` (without JavaScript: rendered on the server) and
 * `publish` (add or save: the API's operations through their form adapter). A failure answers the
 * form with its message and the typed title and text.
 */
export async function action({ context, params, request }: Route.ActionArgs) {
  const app = getAppContext(context);
  const { row } = await editableBookOf(app, request, params.circleId, params.bookId);
  const form = await readForm(request);
  const title = typeof form.get("title") === "string" ? (form.get("title") as string) : "";
  const content = typeof form.get("content") === "string" ? (form.get("content") as string) : "";
  const values = { title: title.slice(0, 300), content };
  const chapterId = params.chapterId ? pathIdOf(request, params.chapterId) : null;
  const failed = (failure: FormFailure) =>
    data(
      {
        formError: failure.formError ?? translator(app.locale)("errors:validation_failed"),
        fieldErrors: failure.fieldErrors,
        values,
      },
      { status: failure.status },
    );
  try {
    assertFormCsrf(app, form);
    if (!form.get("intent")) form.set("intent", "publish");
    const post: FormPost = { app, request, form, params };
    return await dispatchIntent(post, {
      preview: async () => {
        const rendered = content.trim() ? await renderMarkdown(content, { locale: app.locale }) : null;
        return { preview: rendered?.html ?? "", values };
      },
      publish: () =>
        chapterId === null
          ? formAction(addChapterOperation, {
              params: () => ({ id: row.id }),
              body: () => ({ title, content }),
              done: (chapter) => redirect(`${bookWritePath(app, row.circleId, row.id)}?notice=chapter_added&number=${chapter.number}`),
              failed,
            })(post)
          : formAction(editChapterOperation, {
              params: () => ({ id: row.id, chapter_id: chapterId }),
              // Both fields, as the form always shows them: an emptied one is the field's message.
              body: () => ({ title, content }),
              done: () => ({ saved: true as const, values }),
              failed,
            })(post),
    });
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") notFound(request);
    if (error instanceof AppError && error.status !== 401) return failed(failureOf(error, app.locale));
    throw error;
  }
}

type ActionAnswer = {
  preview?: string;
  saved?: true;
  values?: { title: string; content: string };
  formError?: string;
  fieldErrors?: Record<string, string>;
};

export default function ChapterWrite({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("books");
  const locale = i18n.language as Locale;
  const { viewerId, book, chapter, csrfToken } = loaderData;
  const answer = (actionData ?? {}) as ActionAnswer;
  const bookPath = localizePath(`/circles/${book.circleId}/write/book/${book.id}`, locale);
  const action = chapter ? `${bookPath}/chapter/${chapter.id}` : `${bookPath}/add-chapter`;
  return (
    <section className="panel chapter-write" aria-labelledby="chapter-write-title">
      <p>
        <Link to={bookPath}>← {t("write.back_to_book_editor")}</Link>
      </p>
      <h1 id="chapter-write-title" className="page-title">
        {chapter ? t("chapter_editor.edit_title", { number: chapter.number }) : t("chapter_editor.add_title")}
      </h1>
      <p className="muted">{t("chapter_editor.book", { name: book.name })}</p>
      {answer.saved ? (
        <p className="notice" role="status">
          {t("chapter_editor.saved")}
        </p>
      ) : null}
      <FormAlert message={answer.fieldErrors ? undefined : answer.formError} />
      <ChapterEditor
        action={action}
        csrfToken={csrfToken}
        title={answer.values?.title ?? chapter?.title ?? ""}
        content={answer.values?.content ?? chapter?.markdown ?? ""}
        previewHtml={answer.preview ?? null}
        errors={answer.fieldErrors}
        submitLabel={chapter ? t("chapter_editor.save") : t("chapter_editor.publish")}
        backup={{ userId: viewerId, bookId: book.id, chapterId: chapter?.id ?? null }}
        serverText={{ title: chapter?.title ?? "", content: chapter?.markdown ?? "" }}
        savedText={answer.saved ? answer.values : null}
      />
    </section>
  );
}
