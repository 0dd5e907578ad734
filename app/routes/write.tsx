import { data, redirect } from "react-router";
import type { Route } from "./+types/write";
import { assertFormCsrf, csrfForForm, getAppContext, privatePageHeaders, readUploadForm } from "../lib/context.server.ts";
import { editorPage, type EditorValues } from "../lib/writing-editor.server.ts";
import { pageMeta } from "../lib/meta.ts";
import { contentStylesheets } from "../components/rendered-content.tsx";
import { WritingEditor, type EditorActionData } from "../components/writing-editor.tsx";
import { AppError, presentError } from "../../common/app-error.ts";
import { localizePath, pageUrl } from "../../common/locale.ts";
import { translator } from "../../common/i18n.ts";
import { createWritingSchema, updateWritingSchema } from "../../features/writings/schema.ts";
import { createWriting, loadReadableWriting, updateWriting } from "../../features/writings/service.ts";
import { deleteDraft } from "../../features/writings/drafts.ts";
import { writingPath } from "../../features/writings/paths.ts";
import { editorFormMaxBytes } from "../../features/writings/editor-values.ts";
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

const checked = (form: FormData, name: string) => form.get(name) === "on" || form.get(name) === "true" || form.get(name) === "1";
const text = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
};
const integer = (value: string) => (/^\s*\d{1,9}\s*$/.test(value) ? Number(value) : value.trim() === "" ? 0 : Number.NaN);

/** The posted editor form as the editor's values (to refill it on failure: nothing typed is lost). */
function postedValues(form: FormData): EditorValues {
  return {
    title: text(form, "title"),
    content: text(form, "content"),
    type: (["article", "serial", "post"].includes(text(form, "type")) ? text(form, "type") : "article") as EditorValues["type"],
    kind: text(form, "kind") || "ordinary",
    kind_name: text(form, "kind_name"),
    language: text(form, "language") === "en" ? "en" : "zh-CN",
    categories: form
      .getAll("categories")
      .map((value) => (typeof value === "string" && /^\d{1,9}$/.test(value) ? Number(value) : 0))
      .filter((id) => id > 0),
    related_entries: text(form, "related_entries"),
    cover_file_id: text(form, "cover_file_id"),
    is_repost: checked(form, "is_repost"),
    source_url: text(form, "source_url"),
    disable_copy: checked(form, "disable_copy"),
    disable_context_menu: checked(form, "disable_context_menu"),
    tip_enabled: checked(form, "tip_enabled"),
    pay_to_view_price: text(form, "pay_to_view_price"),
    red_packet_amount: text(form, "red_packet_amount"),
  };
}

function apiInput(values: EditorValues) {
  const related = values.related_entries
    .split(/[\s,，]+/)
    .filter(Boolean)
    .map((value) => (/^\d{1,9}$/.test(value) ? Number(value) : Number.NaN));
  return {
    title: values.title,
    content: values.content,
    kind: values.kind,
    kind_name: values.kind_name,
    categories: values.categories,
    related_entries: related,
    cover_file_id: values.cover_file_id || null,
    is_repost: values.is_repost,
    source_url: values.is_repost ? values.source_url : "",
    disable_copy: values.disable_copy,
    disable_context_menu: values.disable_context_menu,
    tip_enabled: values.tip_enabled,
    pay_to_view_price: integer(values.pay_to_view_price),
    red_packet_amount: integer(values.red_packet_amount),
  };
}

/** Publishing and saving an edit, as a plain form post (the editor with JavaScript posts the same form). */
export async function action({ context, params, request }: Route.ActionArgs) {
  const app = getAppContext(context);
  if (!app.viewer) throw new AppError("not_authenticated");
  // Multipart (the cover travels as a file without JavaScript); URL-encoded forms are read too.
  const form = await readUploadForm(request, editorFormMaxBytes, "payload_too_large");
  assertFormCsrf(app, form);
  const values = postedValues(form);
  if (form.get("remove_cover") === "on") values.cover_file_id = "";
  const t = translator(app.locale);
  const fail = (status: number, answer: EditorActionData) => data<EditorActionData>(answer, { status, headers: privatePageHeaders() });
  const circleId = Number(params.circleId);
  const editId = Number(text(form, "edit_id")) || null;
  if (editId && text(form, "intent") === "use_saved") {
    // "Use the other version" after an edit conflict, without JavaScript: the saved title and
    // text fill the form (the other fields stay as posted), with the saved version's number.
    const { row } = await loadReadableWriting(app.db, app.viewer, editId);
    return data<EditorActionData>(
      { values: { ...values, title: row.title, content: row.markdown }, taken: { version: row.version } },
      { headers: privatePageHeaders() },
    );
  }
  try {
    const cover = await postedCover(app, form);
    if (cover) values.cover_file_id = cover;
  } catch (error) {
    // A wrong file is the cover's error; everything else typed comes back as it was.
    if (!(error instanceof AppError)) throw error;
    return fail(error.status, { values, fieldErrors: { cover_file_id: presentError(error, app.locale).message } });
  }
  try {
    let target: { id: number; url: string };
    if (editId) {
      const parsed = updateWritingSchema.safeParse({ ...apiInput(values), version: Number(text(form, "version")) });
      if (!parsed.success) return fail(400, { values, fieldErrors: fieldErrorsOf(parsed.error.issues, t) });
      const row = await updateWriting({ db: app.db }, app.viewer, editId, parsed.data);
      target = { id: row.id, url: writingPath(row) };
    } else {
      const type = pageType(request) === "post" ? "post" : values.type === "serial" ? "serial" : "article";
      const parsed = createWritingSchema.safeParse({
        ...apiInput(values),
        type,
        language: values.language,
        translation_of: Number(text(form, "translation_of")) || null,
        series_id: Number(text(form, "series_id")) || null,
      });
      if (!parsed.success) return fail(400, { values, fieldErrors: fieldErrorsOf(parsed.error.issues, t) });
      target = await createWriting({ db: app.db }, app.viewer, circleId, parsed.data);
    }
    const draftKey = text(form, "draft_key");
    if (/^[a-z0-9][a-z0-9_-]{0,63}$/.test(draftKey)) await deleteDraft({ db: app.db }, app.viewer.id, draftKey);
    throw redirect(localizePath(target.url, app.locale));
  } catch (error) {
    if (!(error instanceof AppError) || error.status === 401 || error.status === 404 || error.status === 403) throw error;
    const body = presentError(error, app.locale);
    const current = error.code === "edit_conflict" ? (error.details?.current as EditorActionData["conflict"]) : undefined;
    return fail(error.status, { values, formError: body.fields ? undefined : body.message, fieldErrors: body.fields, conflict: current });
  }
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

function fieldErrorsOf(issues: { path: PropertyKey[]; message: string }[], t: ReturnType<typeof translator>): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of issues) {
    const field = String(issue.path[0] ?? "form");
    fields[field] ??= t(issue.message.startsWith("validation:") ? issue.message : "validation:invalid_value");
  }
  return fields;
}

export default function Write({ loaderData, actionData }: Route.ComponentProps) {
  return <WritingEditor page={loaderData} result={actionData} />;
}
