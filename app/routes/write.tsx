import { data, redirect } from "react-router";
import type { Route } from "./+types/write";
import { assertFormCsrf, csrfForForm, getAppContext, privatePageHeaders, readUploadForm } from "../lib/context.server.ts";
import { dispatchIntent, formAction, requireSignedIn, type FormFailure, type FormPost } from "../../server/lib/operation.ts";
import { editorPage, type EditorValues } from "../lib/writing-editor.server.ts";
import { pageMeta } from "../lib/meta.ts";
import { contentStylesheets } from "../components/rendered-content.tsx";
import { WritingEditor, type EditorActionData } from "../components/writing-editor.tsx";
import { AppError, presentError } from "../../common/app-error.ts";
import { localizePath, pageUrl } from "../../common/locale.ts";
import { draftKeySchema } from "../../features/writings/schema.ts";
import { loadReadableWriting } from "../../features/writings/service.ts";
import { deleteDraft } from "../../features/writings/drafts.ts";
import { editWriting, publishWriting, saveDraftOperation } from "../../features/writings/operations.ts";
import { editInputOf, editorFormMaxBytes, editorValuesFromForm, publishInputOf } from "../../features/writings/editor-values.ts";
import { storeImage } from "../../features/attachments/service.ts";
import { maxImageBytes } from "../../features/attachments/constants.ts";
import "../lib/editor-catalog.ts";
import "../../common/i18n-forms.ts";

export const links: Route.LinksFunction = () => [...contentStylesheets];
export const meta: Route.MetaFunction = ({ location, loaderData }) =>
  pageMeta(
    location,
    loaderData?.mode.kind === "edit"
      ? "editor:editor.title_edit"
      : loaderData?.page === "post"
        ? "editor:editor.title_new_post"
        : "editor:editor.title_new_article",
  );
export const headers: Route.HeadersFunction = ({ loaderHeaders, actionHeaders }) =>
  actionHeaders.has("Cache-Control") ? actionHeaders : loaderHeaders;

const pageType = (request: Request) => (/\/post\/?$/.test(pageUrl(request.url).pathname) ? "post" : "article");

/** The editor: /circles/{id}/write/article (articles, serialized articles; `?edit=`, `?translate=`, `?series=`) and /circles/{id}/post. */
export async function loader({ context, params, request }: Route.LoaderArgs) {
  const app = getAppContext(context);
  const page = await editorPage(app, request, params.circleId, pageType(request), pageUrl(request.url).searchParams);
  const csrf = csrfForForm(app);
  return data(
    { ...page, csrfToken: csrf.token },
    { headers: { ...privatePageHeaders(), ...(csrf.setCookie ? { "Set-Cookie": csrf.setCookie } : {}) } },
  );
}

/**
 * The editor's form posts, by `intent`: `publish` (publishing and saving an edit: the API's
 * operations `publishWriting` / `editWriting` through their form adapter), `save_draft` (the
 * "Save draft" button without JavaScript: the same operation as the autosave's PUT) and
 * `use_saved` (after an edit conflict, without JavaScript). With JavaScript the editor posts the
 * same form to publish; the draft buttons work in the page.
 */
export async function action({ context, params, request }: Route.ActionArgs) {
  const app = getAppContext(context);
  requireSignedIn(app.viewer);
  // Multipart (the cover travels as a file without JavaScript); URL-encoded forms are read too.
  const form = await readUploadForm(request, editorFormMaxBytes, "payload_too_large");
  assertFormCsrf(app, form);
  // Enter in a field, and "Publish my version" after a conflict, publish.
  if (!form.get("intent")) form.set("intent", "publish");
  return dispatchIntent({ app, request, form, params }, { publish, save_draft: saveDraftIntent, use_saved: useSaved });
}

const text = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
};
const answer = (result: EditorActionData, status = 200) => data<EditorActionData>(result, { status, headers: privatePageHeaders() });
/** Who sees the error screen rather than the form: visitors (login), unknown or hidden writings, and refusals. */
const errorScreen = (error: AppError) => error.status === 401 || error.status === 403 || error.status === 404;

/** The posted values, with the cover chosen in the plain form stored (or its error). */
async function postedEditorValues(post: FormPost): Promise<{ values: EditorValues; coverError?: AppError }> {
  const values = editorValuesFromForm(post.form);
  if (post.form.get("remove_cover") === "on") values.cover_file_id = "";
  try {
    const cover = await postedCover(post.app as ReturnType<typeof getAppContext>, post.form);
    if (cover) values.cover_file_id = cover;
    return { values };
  } catch (error) {
    // A wrong file is the cover's error; everything else typed comes back as it was.
    if (!(error instanceof AppError)) throw error;
    return { values, coverError: error };
  }
}

/** Publishes (or saves the edit), deletes the draft and opens the writing; a failure answers the form with every typed field. */
async function publish(post: FormPost) {
  const { values, coverError } = await postedEditorValues(post);
  if (coverError)
    return answer({ values, fieldErrors: { cover_file_id: presentError(coverError, post.app.locale).message } }, coverError.status);
  const failed = (failure: FormFailure) =>
    answer(
      {
        values,
        formError: failure.formError,
        fieldErrors: failure.fieldErrors,
        conflict: failure.code === "edit_conflict" ? (failure.details?.current as EditorActionData["conflict"]) : undefined,
      },
      failure.status,
    );
  const opened = async (url: string) => {
    const draftKey = text(post.form, "draft_key");
    if (draftKeySchema.safeParse(draftKey).success) await deleteDraft({ db: post.app.db }, post.app.viewer!.id, draftKey);
    throw redirect(localizePath(url, post.app.locale));
  };
  const editId = text(post.form, "edit_id");
  if (editId)
    return formAction(editWriting, {
      params: () => ({ id: editId }),
      body: () => ({ ...editInputOf(values), version: Number(text(post.form, "version")) }),
      done: (edited) => opened(edited.url),
      failed,
      errorScreen,
    })(post);
  return formAction(publishWriting, {
    params: ({ params }) => ({ cid: params.circleId }),
    body: () => publishInputOf(values, { type: pageType(post.request), translationOf: text(post.form, "translation_of") }),
    done: (created) => opened(created.url),
    failed,
    errorScreen,
  })(post);
}

/** "Save draft" without JavaScript: the form as the draft (what the writer sees is what they save), then the form again with "saved". */
async function saveDraftIntent(post: FormPost) {
  const { values, coverError } = await postedEditorValues(post);
  const { title, content, ...fields } = values;
  return formAction(saveDraftOperation, {
    params: () => ({ key: text(post.form, "draft_key") }),
    body: () => ({ title, body: content, fields: { ...fields, circle_id: Number(post.params.circleId) }, version: 0, force: true }),
    done: (draft) =>
      answer({
        values,
        draftSaved: { at: draft.updated_at, version: draft.version },
        ...(coverError ? { fieldErrors: { cover_file_id: presentError(coverError, post.app.locale).message } } : {}),
      }),
    failed: (failure) => answer({ values, formError: failure.formError ?? Object.values(failure.fieldErrors ?? {})[0] }, failure.status),
    errorScreen,
  })(post);
}

/**
 * "Use the other version" after an edit conflict, without JavaScript: the saved title and text
 * fill the form (the other fields stay as posted), with the saved version's number.
 */
async function useSaved(post: FormPost) {
  const editId = Number(text(post.form, "edit_id"));
  if (!editId) throw new AppError("bad_request");
  const values = editorValuesFromForm(post.form);
  const { row } = await loadReadableWriting(post.app.db, post.app.viewer, editId);
  return answer({ values: { ...values, title: row.title, content: row.markdown }, taken: { version: row.version } });
}

/**
 * The cover chosen in the plain form (field `cover`), checked by its bytes (JPG or PNG, at most
 * 2 MB), re-encoded and stored; its file id, or null when no file was chosen.
 */
async function postedCover(app: ReturnType<typeof getAppContext>, form: FormData): Promise<string | null> {
  const file = form.get("cover");
  if (!(file instanceof File) || file.size === 0) return null;
  if (file.size > maxImageBytes) throw new AppError("image_too_large");
  const stored = await storeImage(
    { db: app.db, files: app.files },
    { ownerId: app.viewer!.id, bytes: Buffer.from(await file.arrayBuffer()), purpose: "cover", maxDimension: 1200 },
  );
  return stored.fileId;
}

export default function Write({ loaderData, actionData }: Route.ComponentProps) {
  return <WritingEditor page={loaderData} result={actionData} />;
}
