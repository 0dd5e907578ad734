import { data, redirect } from "react-router";
import type { AppContext } from "../context.ts";
import { AppError } from "../../common/app-error.ts";
import { idFromText } from "../../common/id.ts";
import { localizePath, pageUrl } from "../../common/locale.ts";
import { notFound } from "./context.server.ts";
import { circleIdOf } from "./circle-pages.server.ts";
import { orNotFound, redirectToOwnCircle } from "./book-pages.server.ts";
import { circleName, withToken } from "./question-pages.server.ts";
import { formAction, type FormFailure, type FormHandler } from "../../server/lib/operation.ts";
import { loadCircleAccess } from "../../features/circles/access.server.ts";
import { can as canInCircle, canViewCircle } from "../../features/circles/policy.ts";
import { listCategories } from "../../features/circles/categories.ts";
import { entriesByIds } from "../../features/encyclopedia/service.ts";
import { deleteDraft, getDraft } from "../../features/writings/drafts.ts";
import { can as canOnQuestion } from "../../features/questions/policy.ts";
import { categoriesOfQuestions, loadReadableQuestion } from "../../features/questions/service.ts";
import { similarQuestions } from "../../features/questions/similar.ts";
import { questionPath } from "../../features/questions/paths.ts";
import { askQuestionOperation, updateQuestionOperation } from "../../features/questions/operations.ts";

/*
 * The ask page (`/circles/{id}/ask`): asking with similar questions and a server draft, and its
 * asker editing a question (`?edit=<id>`) with the draft of the edit and edit conflicts.
 */

/** The draft key of the ask page of a circle (`/account/drafts` reopens it there). */
export const askDraftKey = (circleId: number) => `ask-${circleId}`;

export interface AskValues {
  title: string;
  content: string;
  categories: number[];
  related_entries: string;
  language: "zh-CN" | "en";
}

/** The draft key of editing a question (`/account/drafts` reopens it on the ask page). */
export const questionDraftKey = (questionId: number) => `question-${questionId}`;

/** The question `?edit=<id>` names, for its asker, under its own circle (else 301 there). */
async function editedQuestion(app: AppContext, request: Request, circleId: number, id: number) {
  const loaded = await orNotFound(request, () => loadReadableQuestion(app.db, app.viewer, id));
  redirectToOwnCircle(request, circleId, loaded.row.circleId);
  if (!canOnQuestion(app.viewer, "edit", { question: loaded.row, access: loaded.access })) throw new AppError("forbidden");
  const categories = await categoriesOfQuestions(app.db, [id]);
  return { row: loaded.row, categories: (categories.get(id) ?? []).map((category) => category.id) };
}

/**
 * `/circles/{id}/ask`: signed in and allowed to write in the circle; the saved draft fills the
 * form. `?edit=<question id>`: its asker edits the question (the saved question, or the draft of
 * the edit when there is one).
 */
export async function askPage(app: AppContext, request: Request, params: { circleId?: string }) {
  if (!app.viewer) throw new AppError("not_authenticated");
  const circleId = circleIdOf(request, params.circleId);
  const editId = idFromText(pageUrl(request.url).searchParams.get("edit"));
  const edited = editId === null ? null : await editedQuestion(app, request, circleId, editId);
  const access = await loadCircleAccess(app.db, app.viewer, circleId);
  if (!access || !canViewCircle(access)) notFound(request);
  if (!edited && !canInCircle(app.viewer, "write", access)) throw new AppError("forbidden");
  const key = edited ? questionDraftKey(edited.row.id) : askDraftKey(circleId);
  const [categories, draft, name] = await Promise.all([
    listCategories(app.db, circleId),
    getDraft(app.db, app.viewer.id, key),
    circleName(app, circleId),
  ]);
  const fields = (draft?.fields ?? {}) as Partial<AskValues>;
  const saved: AskValues | null = edited
    ? {
        title: edited.row.title,
        content: edited.row.markdown,
        categories: edited.categories,
        related_entries: edited.row.relatedEntryIds.join(", "),
        language: edited.row.language,
      }
    : null;
  const values: AskValues = {
    title: draft?.title ?? saved?.title ?? pageUrl(request.url).searchParams.get("q")?.slice(0, 100) ?? "",
    content: draft?.body ?? saved?.content ?? "",
    categories: Array.isArray(fields.categories)
      ? fields.categories.filter((id): id is number => typeof id === "number")
      : (saved?.categories ?? []),
    related_entries: typeof fields.related_entries === "string" ? fields.related_entries : (saved?.related_entries ?? ""),
    language: fields.language === "en" || fields.language === "zh-CN" ? fields.language : (saved?.language ?? app.locale),
  };
  const relatedIds = parseIds(values.related_entries).filter((id) => Number.isInteger(id));
  const related = relatedIds.length > 0 ? await entriesByIds(app.db, app.viewer, relatedIds) : [];
  const similar =
    values.title && !edited ? await similarQuestions(app.db, { q: values.title, circleId, viewer: app.viewer, limit: 5 }) : [];
  return withToken(app, {
    circle: { id: circleId, name },
    categories,
    values,
    editing: edited ? { id: edited.row.id, version: edited.row.version, url: questionPath(edited.row) } : null,
    related: related.map((entry) => ({ id: entry.id, name: entry.name, disambiguation: entry.disambiguation, language: entry.language })),
    similar,
    draft: draft
      ? { key, version: draft.version, updatedAt: draft.updated_at, circleId }
      : { key, version: 0, updatedAt: null as string | null, circleId },
  });
}

function parseIds(text: string): number[] {
  return text
    .split(/[\s,，]+/)
    .filter(Boolean)
    .map((value) => (/^\d{1,9}$/.test(value) ? Number(value) : Number.NaN));
}

function askValuesOf(form: FormData): AskValues {
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : "";
  };
  return {
    title: text("title"),
    content: text("content"),
    categories: form
      .getAll("categories")
      .map((value) => (typeof value === "string" && /^\d{1,9}$/.test(value) ? Number(value) : 0))
      .filter((id) => id > 0),
    related_entries: text("related_entries"),
    language: text("language") === "en" ? "en" : "zh-CN",
  };
}

/** What the ask form answers when it does not go on to the question: the typed values, errors and similar questions. */
export interface AskAnswer {
  values: AskValues;
  /** Editing: the question as saved now, when the edit came from an older version (409 `edit_conflict`). */
  current?: { title: string; content: string; version: number };
  similar: Awaited<ReturnType<typeof similarQuestions>>;
  checked: boolean;
  formError?: string;
  fieldErrors?: Record<string, string>;
}

/**
 * The ask page's intents: `check` (without JavaScript: the similar questions of the typed title,
 * the form kept) and `ask` (publish; the draft goes; on to the question page).
 */
export const askIntents: Record<"check" | "ask" | "save", FormHandler> = {
  check: async (post) => {
    const circleId = circleIdOf(post.request, post.params.circleId);
    const values = askValuesOf(post.form);
    const similar = await similarQuestions(post.app.db, { q: values.title, circleId, viewer: post.app.viewer, limit: 5 });
    return { values, similar, checked: true } satisfies AskAnswer;
  },
  ask: async (post) => {
    const circleId = circleIdOf(post.request, post.params.circleId);
    const values = askValuesOf(post.form);
    return formAction(askQuestionOperation, {
      params: () => ({ cid: circleId }),
      body: () => ({
        title: values.title,
        content: values.content,
        categories: values.categories,
        related_entries: parseIds(values.related_entries),
        language: values.language,
      }),
      done: async (created, { app }) => {
        await deleteDraft({ db: app.db }, app.viewer!.id, askDraftKey(circleId));
        throw redirect(localizePath(created.url, app.locale), 303);
      },
      failed: async (failure: FormFailure, { app }) =>
        data<AskAnswer>(
          {
            values,
            similar: await similarQuestions(app.db, { q: values.title, circleId, viewer: app.viewer, limit: 5 }),
            checked: false,
            ...(failure.fieldErrors ? { fieldErrors: failure.fieldErrors } : { formError: failure.formError }),
          },
          { status: failure.status },
        ),
    })(post);
  },
  save: async (post) => {
    const id = idFromText(pageUrl(post.request.url).searchParams.get("edit"));
    if (id === null) throw new AppError("bad_request");
    const values = askValuesOf(post.form);
    return formAction(updateQuestionOperation, {
      params: () => ({ id }),
      body: (form) => ({
        title: values.title,
        content: values.content,
        categories: values.categories,
        related_entries: parseIds(values.related_entries),
        language: values.language,
        version: idFromText(form.get("version")) ?? 0,
      }),
      done: async (saved, { app }) => {
        await deleteDraft({ db: app.db }, app.viewer!.id, questionDraftKey(id));
        throw redirect(`${localizePath(saved.url, app.locale)}?notice=edited_question`, 303);
      },
      failed: async (failure: FormFailure, { app }) => {
        let current: AskAnswer["current"];
        if (failure.code === "edit_conflict") {
          const { row } = await loadReadableQuestion(app.db, app.viewer, id);
          current = { title: row.title, content: row.markdown, version: row.version };
        }
        return data<AskAnswer>(
          {
            values,
            similar: [],
            checked: false,
            ...(current ? { current } : {}),
            ...(failure.fieldErrors ? { fieldErrors: failure.fieldErrors } : { formError: failure.formError }),
          },
          { status: failure.status },
        );
      },
    })(post);
  },
};
