import { data, Link, redirect } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/encyclopedia-write";
import { assertFormCsrf, getAppContext, readForm } from "../lib/context.server.ts";
import { withFormToken } from "../lib/circle-pages.server.ts";
import { pageMeta } from "../lib/meta.ts";
import {
  blankRows,
  draftKeyOf,
  entryBody,
  entryEditorData,
  entryFormValues,
  versionLanguageOf,
  withBibtex,
  withPostedPhoto,
  type EntryFormValues,
} from "../lib/entry-editor.server.ts";
import { localizePath, type Locale } from "../../common/locale.ts";
import { translator } from "../../common/i18n.ts";
import { AppError, presentError } from "../../common/app-error.ts";
import { formAction, requireSignedIn, type FormFailure, type FormPost } from "../../server/lib/operation.ts";
import { addVersionOperation, createEntryOperation, updateEntryOperation } from "../../features/encyclopedia/operations.ts";
import { renderEntryContent } from "../../features/encyclopedia/render.server.ts";
import { loadReadableEntry } from "../../features/encyclopedia/service.ts";
import { deleteDraft } from "../../features/writings/drafts.ts";
import { idFromText } from "../../common/id.ts";
import { FormAlert } from "../components/circle-settings-layout.tsx";
import { EntryEditor } from "../components/entry-editor.tsx";
import { movePhoto } from "../../features/encyclopedia/schema.ts";
import { contentStylesheets } from "../components/rendered-content.tsx";
import "../lib/encyclopedia-catalog.ts";
import "../../common/i18n-forms.ts";

export const links: Route.LinksFunction = () => [...contentStylesheets];

export const meta: Route.MetaFunction = ({ location, loaderData }) =>
  pageMeta(location, (t) =>
    loaderData?.version
      ? t("encyclopedia:editor.version_title", { name: loaderData.version.of.name })
      : loaderData?.entry
        ? t("encyclopedia:editor.edit_title", { name: loaderData.entry.name })
        : t("encyclopedia:editor.create_title"),
  );

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

/** `/circles/{cid}/encyclopedia/write` (a new entry) and `/circles/{cid}/encyclopedia/{entry_id}/edit`. */
export async function loader({ context, params, request }: Route.LoaderArgs) {
  const app = getAppContext(context);
  return withFormToken(app, await entryEditorData(app, request, params));
}

interface EditorAnswer {
  values: EntryFormValues;
  rows?: number;
  preview?: string;
  formError?: string;
  fieldErrors?: Record<string, string>;
  /** The revision saved meanwhile that collides with this edit: shown beside the form's text. */
  conflict?: { revision: number; name: string; content: string };
  /** Changes on every answer, so the form takes the values the server sends back. */
  nonce: number;
}

let answers = 0;
const answer = (value: Omit<EditorAnswer, "nonce">, status = 200) => data<EditorAnswer>({ ...value, nonce: (answers += 1) }, { status });

/**
 * The editor's intents: `save` (create or edit through the same operations as the API),
 * `preview` (rendered on the server by the same pipeline), `more_references` (blank rows) and
 * `bibtex` (a pasted entry becomes a reference row), `add_photo`, `photo_up:{file id}` and
 * `photo_down:{file id}` (the photo rows' order, the first the infobox photo). Every answer but a successful save sends back
 * everything typed.
 */
export async function action({ context, params, request }: Route.ActionArgs) {
  const app = getAppContext(context);
  requireSignedIn(app.viewer);
  const form = await readForm(request);
  assertFormCsrf(app, form);
  let values = entryFormValues(form);
  const rows = Number(form.get("rows")) || blankRows;
  const intent = form.get("intent");
  // A photo chosen in the file field is stored with any submit (multipart), then kept as a row.
  const photosBefore = values.photos.length;
  try {
    values = await withPostedPhoto(app, form, values);
  } catch (error) {
    if (!(error instanceof AppError) || error.status >= 500) throw error;
    return answer({ values, rows, fieldErrors: { photo_file: presentError(error, app.locale).message } }, error.status);
  }
  // Move buttons of a photo row (`photo_up:{file id}`, `photo_down:{file id}`): the order is the form's, saved with the revision.
  const move = typeof intent === "string" ? /^photo_(up|down):(.{1,100})$/.exec(intent) : null;
  if (move) return answer({ values: { ...values, photos: movePhoto(values.photos, move[2]!, move[1] === "up" ? -1 : 1) }, rows });
  if (intent === "add_photo") {
    if (values.photos.length > photosBefore) return answer({ values, rows });
    return answer({ values, rows, fieldErrors: { photo_file: translator(app.locale)("encyclopedia:editor.photo_missing") } }, 400);
  }
  // `…/{entry_id}/edit?language=en` writes the entry's missing English version.
  const versionLanguage = params.entryId !== undefined ? versionLanguageOf(request) : null;
  const editing = params.entryId !== undefined && versionLanguage === null;
  const t = translator(app.locale);
  if (intent === "preview") {
    const preview = values.content.trim() ? await renderEntryContent(entryBody(values, "create") as never, values.language) : "";
    return answer({ values, preview, rows });
  }
  if (intent === "more_references") return answer({ values, rows: rows + 2 });
  if (intent === "bibtex") {
    const filled = withBibtex(values, typeof form.get("bibtex") === "string" ? (form.get("bibtex") as string) : "");
    if (!filled) return answer({ values, rows, fieldErrors: { bibtex: t("encyclopedia:editor.bibtex_invalid") } }, 400);
    return answer({ values: filled, rows });
  }
  if (intent !== "save") throw new AppError("bad_request");
  const post: FormPost = { app, request, form, params };
  const failed = async (failure: FormFailure) => {
    if (failure.code === "edit_conflict" && editing) {
      const id = idFromText(params.entryId);
      const current = id === null ? null : await loadReadableEntry(app.db, app.viewer, id).catch(() => null);
      if (current)
        return answer(
          {
            values: { ...values, base_revision: String(current.row.revisionId ?? "") },
            rows,
            formError: t("encyclopedia:editor.conflict"),
            conflict: { revision: current.row.revisionId ?? 0, name: current.row.name, content: current.row.description },
          },
          409,
        );
    }
    return answer(
      {
        values,
        rows,
        formError: failure.formError ?? (failure.fieldErrors ? t("errors:validation_failed") : undefined),
        fieldErrors: failure.fieldErrors,
      },
      failure.status,
    );
  };
  const done = async (saved: { id: number; url: string }) => {
    const circleId = params.circleId ?? "";
    const key = versionLanguage
      ? draftKeyOf(Number(circleId), Number(params.entryId), versionLanguage)
      : draftKeyOf(Number(circleId), editing ? saved.id : null);
    await deleteDraft({ db: app.db }, app.viewer!.id, key);
    throw redirect(localizePath(saved.url, app.locale));
  };
  try {
    if (versionLanguage)
      return await formAction(addVersionOperation, {
        params: () => ({ id: params.entryId }),
        body: () => entryBody({ ...values, language: versionLanguage }, "version"),
        done,
        failed,
      })(post);
    if (editing)
      return await formAction(updateEntryOperation, {
        params: () => ({ id: params.entryId }),
        body: () => entryBody(values, "edit"),
        done,
        failed,
      })(post);
    return await formAction(createEntryOperation, {
      params: () => ({ circleId: params.circleId }),
      body: () => entryBody(values, "create"),
      done,
      failed,
    })(post);
  } catch (error) {
    if (error instanceof AppError && error.status !== 401 && error.status !== 404) {
      const body = presentError(error, app.locale);
      return answer({ values, rows, formError: body.message }, error.status);
    }
    throw error;
  }
}

export default function EncyclopediaWrite({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("encyclopedia");
  const locale = i18n.language as Locale;
  const reply = actionData as EditorAnswer | undefined;
  const { entry, version, circleId, csrfToken } = loaderData;
  const values = reply?.values ?? loaderData.values;
  const action = localizePath(
    version
      ? `/circles/${circleId}/encyclopedia/${version.of.id}/edit?language=${version.language}`
      : entry
        ? `/circles/${circleId}/encyclopedia/${entry.id}/edit`
        : `/circles/${circleId}/encyclopedia/write`,
    locale,
  );
  const back = version ?? (entry ? { of: entry } : null);
  return (
    <section className="panel entry-write" aria-labelledby="entry-write-title">
      <p>
        <Link to={localizePath(back ? `/circles/${circleId}/encyclopedia/${back.of.id}` : `/circles/${circleId}/encyclopedia`, locale)}>
          ← {back ? back.of.name : t("read.encyclopedia")}
        </Link>
      </p>
      <h1 id="entry-write-title" className="page-title">
        {version
          ? t("editor.version_title", { name: version.of.name })
          : entry
            ? t("editor.edit_title", { name: entry.name })
            : t("editor.create_title")}
      </h1>
      {version ? (
        <p className="muted" data-testid="entry-version-language">
          {t("editor.version_language", { language: t(`languages.${version.language}`) })}
        </p>
      ) : null}
      {loaderData.fromDraft && !reply ? (
        <p className="notice" role="status" data-testid="entry-draft-restored">
          {t("editor.draft_restored")}
        </p>
      ) : null}
      <FormAlert message={reply?.formError} />
      {reply?.conflict ? (
        <section className="panel editor-conflict" aria-labelledby="entry-conflict-title" data-testid="entry-conflict">
          <h2 id="entry-conflict-title">{t("editor.conflict_title", { revision: reply.conflict.revision })}</h2>
          <p>{t("editor.conflict_help")}</p>
          <p>
            <strong>{reply.conflict.name}</strong>
          </p>
          <pre className="editor-conflict-text">{reply.conflict.content}</pre>
        </section>
      ) : null}
      <EntryEditor
        key={reply?.nonce ?? 0}
        action={action}
        csrfToken={csrfToken}
        mode={version ? "version" : entry ? "edit" : "create"}
        values={values}
        parents={loaderData.parents}
        previewHtml={reply?.preview ?? null}
        fieldErrors={reply?.fieldErrors}
        blankRows={reply?.rows ?? 2}
        draftKey={loaderData.draftKey}
        draftVersion={loaderData.draftVersion}
      />
    </section>
  );
}
