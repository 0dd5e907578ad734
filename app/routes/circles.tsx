import { Form, Link, data, useLocation } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/circles";
import { getAppContext, signedInFormPost, tagPage } from "../lib/context.server.ts";
import { withFormToken } from "../lib/circle-pages.server.ts";
import { localizePath, pageUrl, type Locale } from "../../common/locale.ts";
import { pageMeta } from "../lib/meta.ts";
import { CircleLogo } from "../components/circle-logo.tsx";
import { listCircleTree, type CircleNode } from "../../features/circles/service.ts";
import { EmptyState } from "../components/empty-state.tsx";
import { CircleCounts } from "../components/circle-counts.tsx";
import "../lib/circles-catalog.ts";
import { circlesTag } from "../../server/lib/cache-tags.ts";
import { joinCircleOperation } from "../../features/circles/operations.ts";
import { dispatchIntent, failuresOnErrorScreen, formAction } from "../../server/lib/operation.ts";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "common:circles.tree_title");

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

/**
 * The tree of the circles the viewer may see, with counts: the top levels, and the branch down to
 * `?open=<id>` opened (a link per closed branch, so it works without JavaScript). `?q=` keeps
 * circles whose name (either language) contains it, with their ancestors, all shown.
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  const app = getAppContext(context);
  tagPage(app, circlesTag);
  const params = pageUrl(request.url).searchParams;
  const query = (params.get("q") ?? "").replaceAll("\u0000", "").trim().slice(0, 100);
  const requested = Number(params.get("open"));
  const open = Number.isSafeInteger(requested) && requested > 0 ? requested : null;
  const page = {
    query,
    signedIn: app.viewer !== null,
    tree: await listCircleTree(app.db, app.viewer, app.locale, { query, collapsed: true, open }),
  };
  if (app.viewer) return withFormToken(app, page);
  return data({ ...page, csrfToken: null as string | null });
}

/** Join a circle from the list (the same operation as its page); the list shows it joined. */
export async function action(args: Route.ActionArgs) {
  return dispatchIntent(await signedInFormPost(args), {
    join: formAction(joinCircleOperation, {
      params: ({ form }) => ({ id: form.get("circle") }),
      body: () => ({}),
      done: () => ({ joined: true }),
      ...failuresOnErrorScreen,
    }),
  });
}

export default function Circles({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("circles");
  const locale = i18n.language as Locale;
  const { query, tree, signedIn, csrfToken } = loaderData;
  const createPath = localizePath("/circles/new", locale);
  return (
    <section className="panel" aria-labelledby="circles-title">
      <div className="panel-heading">
        <h1 id="circles-title" className="page-title">
          {t("common:circles.tree_title")}
        </h1>
        <Link
          className="button button-primary"
          to={signedIn ? createPath : `${localizePath("/login", locale)}?next=${encodeURIComponent("/circles/new")}`}
        >
          {t("create.title")}
        </Link>
      </div>
      <p className="muted">{t("common:circles.tree_intro")}</p>
      {actionData?.joined ? (
        <p className="notice" role="status" data-testid="circle-joined-notice">
          {t("page.joined_notice")}
        </p>
      ) : null}
      <Form
        method="get"
        action={localizePath("/circles", locale)}
        role="search"
        className="search-form"
        aria-label={t("tree.filter_label")}
      >
        <input
          className="text-input"
          type="search"
          name="q"
          defaultValue={query}
          aria-label={t("tree.filter_label")}
          placeholder={t("tree.filter_placeholder")}
          maxLength={100}
        />
        <button type="submit" className="button">
          {t("tree.filter")}
        </button>
        {query ? (
          <Link className="button" to={localizePath("/circles", locale)}>
            {t("tree.clear")}
          </Link>
        ) : null}
      </Form>
      {query ? <h2 className="circle-filter-title">{t("tree.matching", { query })}</h2> : null}
      {tree.length === 0 ? (
        <EmptyState description={t("tree.no_match", { query })} />
      ) : (
        <CircleTree nodes={tree} parentId={null} depth={0} browsing={!query} csrfToken={csrfToken} />
      )}
    </section>
  );
}

/**
 * One level of the tree. While browsing (no filter), a closed branch links to `?open=<id>`, an
 * opened one below the top level to its parent's (closing it); both keep the reader's scroll.
 */
function CircleTree({
  nodes,
  parentId,
  depth,
  browsing,
  csrfToken,
}: {
  nodes: CircleNode[];
  parentId: number | null;
  depth: number;
  browsing: boolean;
  csrfToken: string | null;
}) {
  const { t, i18n } = useTranslation("circles");
  const locale = i18n.language as Locale;
  const treePath = localizePath("/circles", locale);
  const location = useLocation();
  return (
    <ul className="circle-tree">
      {nodes.map((node) => (
        <li key={node.id}>
          <div className="circle-tree-item">
            <CircleLogo circle={node} size={40} locale={locale} />
            <div>
              <Link to={localizePath(`/circles/${node.id}`, locale)}>
                <strong>{node.name}</strong>
              </Link>
              {node.role ? <span className="role-badge">{t(`roles.${node.role}`)}</span> : null}
              <div className="muted">{node.description}</div>
              <CircleCounts counts={node.counts} nonZero />
              {browsing && node.children.length === 0 && node.counts.subcircles > 0 ? (
                <Link className="circle-tree-toggle" to={`${treePath}?open=${node.id}`} preventScrollReset aria-expanded={false}>
                  {t("tree.open", { count: node.counts.subcircles, name: node.name })}
                </Link>
              ) : null}
              {browsing && node.children.length > 0 && depth > 0 ? (
                <Link
                  className="circle-tree-toggle"
                  to={depth > 1 && parentId !== null ? `${treePath}?open=${parentId}` : treePath}
                  preventScrollReset
                  aria-expanded
                >
                  {t("tree.close", { name: node.name })}
                </Link>
              ) : null}
            </div>
            {node.joinable && csrfToken ? (
              <Form
                method="post"
                action={`${location.pathname}${location.search}`}
                className="inline-form circle-tree-join"
                preventScrollReset
              >
                <input type="hidden" name="csrftoken" value={csrfToken} />
                <input type="hidden" name="circle" value={node.id} />
                <button
                  type="submit"
                  name="intent"
                  value="join"
                  className="button button-primary"
                  aria-label={t("tree.join", { name: node.name })}
                  data-testid={`circle-join-${node.id}`}
                >
                  {t("page.join")}
                </button>
              </Form>
            ) : !csrfToken && node.role === null ? (
              <Link
                className="button circle-tree-join"
                to={`${localizePath("/login", locale)}?next=${encodeURIComponent(`/circles/${node.id}`)}`}
                aria-label={t("tree.join", { name: node.name })}
              >
                {t("page.join")}
              </Link>
            ) : null}
          </div>
          {node.children.length > 0 ? (
            <CircleTree nodes={node.children} parentId={node.id} depth={depth + 1} browsing={browsing} csrfToken={csrfToken} />
          ) : null}
        </li>
      ))}
    </ul>
  );
}
