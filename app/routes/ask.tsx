import { useEffect, useRef, useState } from "react";
import { Form, Link } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/ask";
import { assertFormCsrf, getAppContext, readForm } from "../lib/context.server.ts";
import { askIntents, askPage, type AskAnswer } from "../lib/ask-pages.server.ts";
import { dispatchIntent, requireSignedIn } from "../../server/lib/operation.ts";
import { formatDate, localizePath, type Locale } from "../../common/locale.ts";
import { pageMeta } from "../lib/meta.ts";
import { Breadcrumb } from "../components/breadcrumb.tsx";
import { describedBy, FormField } from "../components/form-field.tsx";
import { MarkdownEditorField } from "../components/markdown-editor-field.tsx";
import { AutosaveStatusText, DraftConflict } from "../components/draft-status.tsx";
import { CategoryChoices, RelatedEntriesField } from "../components/editor-fields.tsx";
import { QuestionLinks, questionStylesheets } from "../components/question-parts.tsx";
import { contentStylesheets } from "../components/rendered-content.tsx";
import { useMarkdownEditor } from "../lib/use-markdown-editor.ts";
import { useDraftAutosave } from "../lib/use-draft-autosave.ts";
import { titleMaxLength } from "../../features/writings/schema.ts";
import type { SimilarQuestion } from "../../features/questions/types.ts";
import "../lib/questions-catalog.ts";
import "../lib/editor-catalog.ts";

export const links = () => [...contentStylesheets, ...questionStylesheets];
export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;
export const meta: Route.MetaFunction = ({ location }) =>
  pageMeta(location, new URLSearchParams(location.search).has("edit") ? "questions:ask.edit_title" : "questions:ask.title");

/** `/circles/{id}/ask`: signed in, allowed to write in the circle. */
export async function loader({ context, params, request }: Route.LoaderArgs) {
  return askPage(getAppContext(context), request, params);
}

/** `check` (similar questions without JavaScript), `ask` (publish, then the question page) and `save` (an edit, `?edit=<id>`). */
export async function action({ context, params, request }: Route.ActionArgs) {
  const app = getAppContext(context);
  requireSignedIn(app.viewer);
  const form = await readForm(request);
  assertFormCsrf(app, form);
  return dispatchIntent({ app, request, form, params }, askIntents);
}

/** Similar questions are looked up this long after the last keystroke in the title. */
const similarDelayMs = 400;

/** While the title is typed: up to five similar questions of the circle (lazy, debounced; the latest answer wins). */
function useSimilarQuestions(circleId: number, title: string, initial: SimilarQuestion[]) {
  const [items, setItems] = useState(initial);
  const [searching, setSearching] = useState(false);
  const first = useRef(true);
  const ticket = useRef(0);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const mine = (ticket.current += 1);
    const timer = setTimeout(() => {
      if (title.trim() === "") {
        setItems([]);
        return;
      }
      setSearching(true);
      fetch(`/api/questions/similar/?${new URLSearchParams({ q: title, circle_id: String(circleId) }).toString()}`, {
        credentials: "same-origin",
      })
        .then((response) =>
          response.ok ? (response.json() as Promise<{ id: number; title: string; answer_count: number; url: string }[]>) : [],
        )
        .then((found) => {
          if (mine !== ticket.current) return;
          setItems(
            found.slice(0, 5).map((item) => ({ id: item.id, circleId, title: item.title, answerCount: item.answer_count, url: item.url })),
          );
        })
        .catch(() => undefined)
        .finally(() => {
          if (mine === ticket.current) setSearching(false);
        });
    }, similarDelayMs);
    return () => clearTimeout(timer);
  }, [circleId, title]);
  return { items, searching };
}

export default function Ask({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("questions");
  const locale = i18n.language as Locale;
  const page = loaderData;
  const answer = actionData as AskAnswer | undefined;
  const values = answer?.values ?? page.values;
  const csrfToken = page.csrfToken!;
  const editing = page.editing;
  const [title, setTitle] = useState(values.title);
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const formRef = useRef<HTMLFormElement>(null);
  const titleRef = useRef(title);
  titleRef.current = title;
  const snapshot = () => {
    const form = formRef.current ? new FormData(formRef.current) : null;
    return {
      title: titleRef.current,
      body: contentRef.current,
      fields: {
        circle_id: page.circle.id,
        categories: form ? form.getAll("categories").map(Number) : values.categories,
        related_entries: form ? String(form.get("related_entries") ?? "") : values.related_entries,
        language: form ? String(form.get("language") ?? values.language) : values.language,
      },
    };
  };
  const autosave = useDraftAutosave({ draftKey: page.draft.key, initialVersion: page.draft.version, csrfToken, snapshot });
  const markdown = useMarkdownEditor({
    initialText: values.content,
    label: t("ask.content_label"),
    csrfToken,
    onEdit: () => autosave.markDirty(),
  });
  const contentRef = useRef(markdown.content);
  contentRef.current = markdown.content;
  const similar = useSimilarQuestions(page.circle.id, title, answer?.similar ?? page.similar);
  const errors = answer?.fieldErrors ?? {};
  const status = autosave.status;
  const path = (to: string) => localizePath(to, locale);
  return (
    <>
      <Breadcrumb
        label={t("common:circles.breadcrumb")}
        trail={[
          { to: path(`/circles/${page.circle.id}`), label: page.circle.name },
          { to: path(`/circles/${page.circle.id}/questions`), label: t("list.title") },
        ]}
        current={editing ? t("ask.edit_title") : t("ask.title")}
      />
      <div className="panel">
        <h1 className="page-title">{editing ? t("ask.edit_title") : t("ask.heading", { circle: page.circle.name })}</h1>
        {page.draft.updatedAt && !answer ? (
          <p className="notice" role="status" data-testid="draft-restored">
            {t("editor:editor.restored", { time: formatDate(page.draft.updatedAt, locale, { dateStyle: "short", timeStyle: "short" }) })}
          </p>
        ) : null}
        {answer?.formError ? (
          <p className="form-error" role="alert">
            {answer.formError}
          </p>
        ) : null}
        {answer?.current ? (
          <section className="panel editor-conflict" role="alert" data-testid="edit-conflict">
            <p>{t("ask.conflict")}</p>
            <h2>{t("answer.saved_version")}</h2>
            <p>
              <strong>{answer.current.title}</strong>
            </p>
            <pre className="editor-conflict-text">{answer.current.content}</pre>
          </section>
        ) : null}
        {status.state === "conflict" ? (
          <DraftConflict
            status={status}
            onKeepMine={autosave.keepMine}
            onTakeTheirs={(current) => {
              autosave.takeTheirs(current);
              setTitle(current.title);
              markdown.replaceText(current.body);
            }}
          />
        ) : null}
        <Form
          method="post"
          ref={formRef}
          className="writing-editor"
          onChange={() => autosave.markDirty()}
          onSubmit={(event) => {
            const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
            if (submitter?.value === "ask" || submitter?.value === "save") autosave.stop();
          }}
          noValidate
        >
          <input type="hidden" name="csrftoken" value={csrfToken} />
          {editing ? <input type="hidden" name="version" value={answer?.current?.version ?? editing.version} /> : null}
          <FormField id="question-title" label={t("ask.title_label")} hint={t("ask.title_hint")} error={errors.title}>
            <input
              id="question-title"
              name="title"
              className="text-input"
              value={title}
              onChange={(event) => {
                setTitle(event.target.value);
                autosave.markDirty();
              }}
              maxLength={titleMaxLength}
              required
              autoComplete="off"
              data-testid="question-title"
              {...describedBy("question-title", errors.title, t("ask.title_hint"))}
            />
          </FormField>
          {editing ? null : (
            <section className="similar-questions" aria-live="polite" aria-labelledby="similar-title" data-testid="similar-panel">
              {similar.items.length > 0 || answer?.checked ? (
                <>
                  <h2 id="similar-title">{t("ask.similar_title")}</h2>
                  {similar.items.length > 0 ? <p className="muted">{t("ask.similar_hint")}</p> : null}
                  <QuestionLinks items={similar.items} testId="similar-questions" empty={t("ask.similar_none")} />
                </>
              ) : (
                <span id="similar-title" className="visually-hidden">
                  {t("ask.similar_title")}
                </span>
              )}
              {similar.searching ? <p className="muted">{t("ask.searching")}</p> : null}
            </section>
          )}
          {hydrated || editing ? null : (
            <p>
              <button type="submit" name="intent" value="check" className="button" formNoValidate data-testid="check-similar">
                {t("ask.check")}
              </button>
            </p>
          )}
          <MarkdownEditorField
            editor={markdown}
            id="question-content"
            label={t("ask.content_label")}
            hint={t("ask.content_hint")}
            error={errors.content}
            rows={10}
            previewEmpty={t("ask.preview_empty")}
          />
          <CategoryChoices
            id="question-categories"
            legend={t("ask.categories")}
            categories={page.categories}
            checked={values.categories}
            error={errors.categories}
          />
          <RelatedEntriesField
            id="question-related"
            label={t("ask.related")}
            idsHint={t("ask.related_hint")}
            hydrated={hydrated}
            initialIds={values.related_entries}
            initial={page.related}
            circleId={page.circle.id}
            error={errors.related_entries}
            onChange={() => autosave.markDirty()}
          />
          <FormField id="question-language" label={t("ask.language")} error={errors.language}>
            <select id="question-language" name="language" className="text-input" defaultValue={values.language}>
              <option value="zh-CN">{t("writings:languages.zh-CN")}</option>
              <option value="en">{t("writings:languages.en")}</option>
            </select>
          </FormField>
          <div className="editor-footer">
            <button
              type="submit"
              name="intent"
              value={editing ? "save" : "ask"}
              className="button button-primary"
              data-testid={editing ? "save-question" : "ask-submit"}
            >
              {editing ? t("ask.save") : t("ask.submit")}
            </button>
            <Link className="button" to={path(editing ? editing.url : `/circles/${page.circle.id}/questions`)}>
              {t("question.cancel")}
            </Link>
            <AutosaveStatusText status={status} />
          </div>
        </Form>
      </div>
    </>
  );
}
