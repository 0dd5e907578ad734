import { Form, Link } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/circles";
import { getAppContext, tagPage } from "../lib/context.server.ts";
import { localizePath, pageUrl, type Locale } from "../../common/locale.ts";
import { pageMeta } from "../lib/meta.ts";
import { CircleLogo } from "../components/circle-logo.tsx";
import { listCircleTree, type CircleNode } from "../../features/circles/service.ts";
import { EmptyState } from "../components/empty-state.tsx";
import { CircleCounts } from "../components/circle-counts.tsx";
import "../lib/circles-catalog.ts";
import { circlesTag } from "../../server/lib/cache-tags.ts";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "common:circles.tree_title");

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
  return {
    query,
    signedIn: app.viewer !== null,
    tree: await listCircleTree(app.db, app.viewer, app.locale, { query, collapsed: true, open }),
  };
}

export default function Circles({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("circles");
  const locale = i18n.language as Locale;
  const { query, tree, signedIn } = loaderData;
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
        <CircleTree nodes={tree} parentId={null} depth={0} browsing={!query} />
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
}: {
  nodes: CircleNode[];
  parentId: number | null;
  depth: number;
  browsing: boolean;
}) {
  const { t, i18n } = useTranslation("circles");
  const locale = i18n.language as Locale;
  const treePath = localizePath("/circles", locale);
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
          </div>
          {node.children.length > 0 ? <CircleTree nodes={node.children} parentId={node.id} depth={depth + 1} browsing={browsing} /> : null}
        </li>
      ))}
    </ul>
  );
}
