import { data, Form, Link, redirect } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/account-store";
import { assertFormCsrf, getAppContext, readForm, requireViewer } from "../lib/context.server.ts";
import { withFormToken } from "../lib/circle-pages.server.ts";
import { formatDate, localizePath, pageUrl, type Locale } from "../../common/locale.ts";
import { AppError } from "../../common/app-error.ts";
import { dispatchIntent, failureOf, formAction, type FormFailure, type FormPost } from "../../server/lib/operation.ts";
import { pageMeta } from "../lib/meta.ts";
import { AccountLayout } from "../components/account-layout.tsx";
import { EmptyState } from "../components/empty-state.tsx";
import { favoritesQuerySchema } from "../../features/favorites/schema.ts";
import { listFavorites, listFolders } from "../../features/favorites/service.ts";
import {
  createFolderOperation,
  deleteFolderOperation,
  presentFavoriteItem,
  presentFolder,
  removeFavoriteOperation,
  updateFavoriteOperation,
  updateFolderOperation,
} from "../../features/favorites/operations.ts";
import "../lib/centre-catalog.ts";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "centre:store.title");
export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

/** `/account/store`: the user's favourites in folders (`?folder=`), searchable (`?q=`), 20 a page (`?cursor=`). */
export async function loader({ context, request }: Route.LoaderArgs) {
  const app = getAppContext(context);
  const viewer = requireViewer(app);
  const url = pageUrl(request.url);
  const query = favoritesQuerySchema.catch({}).parse({
    folder_id: url.searchParams.get("folder") ?? undefined,
    q: url.searchParams.get("q") ?? undefined,
    cursor: url.searchParams.get("cursor") ?? undefined,
  });
  const folders = (await listFolders(app.db, viewer.id)).map(presentFolder);
  const folderId = folders.some((folder) => folder.id === query.folder_id) ? query.folder_id : undefined;
  const page = await listFavorites(app.db, viewer, { ...query, folder_id: folderId });
  return withFormToken(app, {
    username: viewer.username,
    folders,
    folderId: folderId ?? null,
    q: query.q ?? "",
    items: page.items.map(presentFavoriteItem),
    nextCursor: page.nextCursor,
  });
}

type StoreAnswer = { error?: string; confirmDeleteFolder?: number };

const field = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
};
/** A refusal as this page shows it: one message above the lists (the field's, or the form's). */
const storeFailed = (failure: FormFailure) =>
  data<StoreAnswer>({ error: failure.formError ?? Object.values(failure.fieldErrors ?? {})[0] ?? "" }, { status: failure.status });
const stay = () => data<StoreAnswer>({});
const onThePage = { failed: storeFailed, errorScreen: (error: AppError) => error.status === 401 };
/** The favourite a form names (`type`, `id`), and the folder (`folder`). */
const itemParams = ({ form }: FormPost) => ({ type: field(form, "type"), id: field(form, "id") });
const folderParams = ({ form }: FormPost) => ({ id: field(form, "folder") });

/** The page's forms: the API's operations (features/favorites/operations.ts), one per intent. */
const storeForms = {
  "create-folder": formAction(createFolderOperation, {
    body: (form) => ({ name: field(form, "name"), is_public: field(form, "is_public") === "1" }),
    done: (folder, { app }) => redirect(`${localizePath("/account/store", app.locale)}?folder=${folder.id}`, 303),
    ...onThePage,
  }),
  "rename-folder": formAction(updateFolderOperation, {
    params: folderParams,
    body: (form) => ({ name: field(form, "name") }),
    done: stay,
    ...onThePage,
  }),
  "folder-visibility": formAction(updateFolderOperation, {
    params: folderParams,
    body: (form) => ({ is_public: field(form, "is_public") === "1" }),
    done: stay,
    ...onThePage,
  }),
  "delete-folder": async (post: FormPost) => {
    if (field(post.form, "confirmed") !== "1") return data<StoreAnswer>({ confirmDeleteFolder: Number(field(post.form, "folder")) });
    return deleteFolderForm(post);
  },
  move: formAction(updateFavoriteOperation, {
    params: itemParams,
    body: (form) => ({ folder_id: field(form, "to") || undefined }),
    done: stay,
    ...onThePage,
  }),
  note: formAction(updateFavoriteOperation, {
    params: itemParams,
    body: (form) => ({ note: field(form, "note") }),
    done: stay,
    ...onThePage,
  }),
  remove: formAction(removeFavoriteOperation, { params: itemParams, body: () => ({}), done: stay, ...onThePage }),
};
const deleteFolderForm = formAction(deleteFolderOperation, {
  params: folderParams,
  body: () => ({}),
  done: (_answer, { app }) => redirect(localizePath("/account/store", app.locale), 303),
  ...onThePage,
});

/** The page's forms, as plain posts: folders (create, rename, public/private, delete with confirmation) and items (move, note, remove). */
export async function action({ context, request, params }: Route.ActionArgs) {
  const app = getAppContext(context);
  requireViewer(app);
  const form = await readForm(request);
  assertFormCsrf(app, form);
  try {
    return await dispatchIntent({ app, request, form, params }, storeForms);
  } catch (error) {
    if (error instanceof AppError && error.status !== 401) return storeFailed(failureOf(error, app.locale));
    throw error;
  }
}

/** The hidden fields of a form about one favourite. */
function ItemFields({ csrfToken, item }: { csrfToken: string; item: { type: string; id: number } }) {
  return (
    <>
      <input type="hidden" name="csrftoken" value={csrfToken} />
      <input type="hidden" name="type" value={item.type} />
      <input type="hidden" name="id" value={item.id} />
    </>
  );
}

export default function AccountStore({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation(["centre", "interactions"]);
  const locale = i18n.language as Locale;
  const answer = actionData as StoreAnswer | undefined;
  const { folders, folderId, items, csrfToken, q } = loaderData;
  const storePath = localizePath("/account/store", locale);
  const folderLabel = (folder: { name: string | null; is_default: boolean }) =>
    folder.is_default ? t("store.default_folder") : folder.name;
  const current = folders.find((folder) => folder.id === folderId) ?? null;
  const hidden = (
    <>
      <input type="hidden" name="csrftoken" value={csrfToken} />
    </>
  );
  const query = (params: Record<string, string | number | null | undefined>) => {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(params))
      if (value !== null && value !== undefined && value !== "") search.set(key, String(value));
    const text = search.toString();
    return text ? `${storePath}?${text}` : storePath;
  };
  return (
    <AccountLayout username={loaderData.username}>
      <section className="panel" aria-labelledby="store-title">
        <h1 id="store-title" className="page-title">
          {t("store.title")}
        </h1>
        {answer?.error ? (
          <p className="form-error" role="alert">
            {answer.error}
          </p>
        ) : null}
        <div className="store-layout">
          <nav className="store-folders" aria-label={t("store.folders")}>
            <ul>
              <li>
                <Link to={query({ q })} aria-current={folderId === null ? "page" : undefined}>
                  {t("store.all")}
                </Link>
              </li>
              {folders.map((folder) => (
                <li key={folder.id}>
                  <Link to={query({ folder: folder.id, q })} aria-current={folder.id === folderId ? "page" : undefined}>
                    {folderLabel(folder)} <span className="muted">({folder.count})</span>
                  </Link>
                  {folder.is_public ? <span className="tag">{t("store.public")}</span> : null}
                </li>
              ))}
            </ul>
            <Form method="post" className="store-new-folder" data-testid="new-folder">
              {hidden}
              <label htmlFor="new-folder-name">{t("store.new_folder")}</label>
              <input id="new-folder-name" name="name" className="text-input" maxLength={40} required />
              <label className="checkbox-label">
                <input type="checkbox" name="is_public" value="1" /> {t("store.make_public")}
              </label>
              <button type="submit" name="intent" value="create-folder" className="button">
                {t("store.create_folder")}
              </button>
            </Form>
          </nav>
          <div className="store-items">
            <Form method="get" role="search" className="store-search">
              {folderId ? <input type="hidden" name="folder" value={folderId} /> : null}
              <label htmlFor="store-q" className="visually-hidden">
                {t("store.search")}
              </label>
              <input
                id="store-q"
                type="search"
                name="q"
                defaultValue={q}
                className="text-input"
                placeholder={t("store.search")}
                maxLength={100}
              />
              <button type="submit" className="button">
                {t("store.search_button")}
              </button>
            </Form>
            {current && !current.is_default ? (
              <div className="store-folder-tools" data-testid="folder-tools">
                <Form method="post" className="inline-form">
                  {hidden}
                  <input type="hidden" name="folder" value={current.id} />
                  <label htmlFor="rename-folder" className="visually-hidden">
                    {t("store.rename")}
                  </label>
                  <input id="rename-folder" name="name" defaultValue={current.name ?? ""} className="text-input" maxLength={40} required />
                  <button type="submit" name="intent" value="rename-folder" className="button">
                    {t("store.rename")}
                  </button>
                </Form>
                <Form method="post" className="inline-form">
                  {hidden}
                  <input type="hidden" name="folder" value={current.id} />
                  <input type="hidden" name="is_public" value={current.is_public ? "0" : "1"} />
                  <button type="submit" name="intent" value="folder-visibility" className="button">
                    {current.is_public ? t("store.make_private") : t("store.make_public")}
                  </button>
                </Form>
                <Form method="post" className="inline-form">
                  {hidden}
                  <input type="hidden" name="folder" value={current.id} />
                  {answer?.confirmDeleteFolder === current.id ? (
                    <>
                      <p className="form-error" role="alert">
                        {t("store.delete_folder_confirm", { count: current.count })}
                      </p>
                      <input type="hidden" name="confirmed" value="1" />
                    </>
                  ) : null}
                  <button type="submit" name="intent" value="delete-folder" className="button button-danger" data-testid="delete-folder">
                    {answer?.confirmDeleteFolder === current.id ? t("store.delete_folder_confirm_button") : t("store.delete_folder")}
                  </button>
                </Form>
              </div>
            ) : null}
            {items.length === 0 ? (
              <EmptyState description={q ? t("store.no_match") : t("store.empty")}>
                <Link to={localizePath("/circles", locale)} className="button">
                  {t("store.browse")}
                </Link>
              </EmptyState>
            ) : (
              <ul className="store-list" data-testid="favorites">
                {items.map((item) => (
                  <li key={`${item.type}:${item.id}`} className="store-item" data-testid="favorite-item">
                    <div className="store-item-head">
                      <span className="tag">{t(`store.kinds.${item.type}`)}</span>
                      {item.url ? (
                        <Link to={localizePath(item.url, locale)} className="store-item-title">
                          {item.title}
                          {item.hidden ? <span className="muted"> ({t("store.hidden")})</span> : null}
                        </Link>
                      ) : item.hidden ? (
                        <span className="store-item-title muted" data-testid="favorite-hidden">
                          {t("store.hidden_title")}
                        </span>
                      ) : (
                        <span className="store-item-title muted">
                          {item.title} ({t("store.unavailable")})
                        </span>
                      )}
                    </div>
                    <p className="muted store-item-meta">
                      {item.circle ? (
                        <>
                          <Link to={localizePath(`/circles/${item.circle.id}`, locale)}>
                            {locale === "en" && item.circle.name_en ? item.circle.name_en : item.circle.name}
                          </Link>
                          {" · "}
                        </>
                      ) : null}
                      {t("store.saved_at", { time: formatDate(item.created_at, locale, { dateStyle: "medium", timeStyle: "short" }) })}
                    </p>
                    <div className="store-item-tools">
                      <Form method="post" className="inline-form">
                        <ItemFields csrfToken={csrfToken} item={item} />
                        <label htmlFor={`move-${item.type}-${item.id}`} className="visually-hidden">
                          {t("store.move_to")}
                        </label>
                        <select id={`move-${item.type}-${item.id}`} name="to" defaultValue={item.folder_id} className="native-select">
                          {folders.map((folder) => (
                            <option key={folder.id} value={folder.id}>
                              {folderLabel(folder)}
                            </option>
                          ))}
                        </select>
                        <button type="submit" name="intent" value="move" className="button">
                          {t("store.move")}
                        </button>
                      </Form>
                      <Form method="post" className="inline-form">
                        <ItemFields csrfToken={csrfToken} item={item} />
                        <label htmlFor={`note-${item.type}-${item.id}`} className="visually-hidden">
                          {t("store.note")}
                        </label>
                        <input
                          id={`note-${item.type}-${item.id}`}
                          name="note"
                          defaultValue={item.note}
                          className="text-input"
                          maxLength={500}
                          placeholder={t("store.note")}
                        />
                        <button type="submit" name="intent" value="note" className="button">
                          {t("store.save_note")}
                        </button>
                      </Form>
                      <Form method="post" className="inline-form">
                        <ItemFields csrfToken={csrfToken} item={item} />
                        <button type="submit" name="intent" value="remove" className="button" data-testid="remove-favorite">
                          {t("store.remove")}
                        </button>
                      </Form>
                    </div>
                  </li>
                ))}
              </ul>
            )}
            {loaderData.nextCursor ? (
              <Link className="button" to={query({ folder: folderId, q, cursor: loaderData.nextCursor })}>
                {t("store.more")}
              </Link>
            ) : null}
          </div>
        </div>
      </section>
    </AccountLayout>
  );
}
