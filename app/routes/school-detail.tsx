import { Link } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/school-detail";
import { getAppContext, tagPage } from "../lib/context.server.ts";
import { localizePath, type Locale } from "../../common/locale.ts";
import { pageMeta } from "../lib/meta.ts";
import { homeTag, schoolsTag } from "../../server/lib/cache-tags.ts";
import { presentMember } from "../../features/schools/operations.ts";
import { loadSchool } from "../../features/schools/service.ts";
import { WritingList } from "../components/writing-list.tsx";
import "../lib/site-pages-catalog.ts";
import { sitePagesStylesheets } from "../lib/site-pages-styles.ts";

export const meta: Route.MetaFunction = ({ location, loaderData }) =>
  pageMeta(location, (t) => (loaderData ? loaderData.name : t("sitepages:school.title")));
export const links = () => sitePagesStylesheets;

/**
 * `/school/{name}`: a school's members and their newest writings the viewer may read. Cached for
 * visitors under `schoolsTag` (profiles) and `homeTag` (published and deleted writings); a school
 * nobody names is a 404.
 */
export async function loader({ context, params }: Route.LoaderArgs) {
  const app = getAppContext(context);
  tagPage(app, schoolsTag, homeTag);
  const school = await loadSchool(app.db, app.viewer, params.name, app.locale);
  return { name: school.name, memberCount: school.memberCount, members: school.members.map(presentMember), writings: school.writings };
}

export default function SchoolDetail({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("sitepages");
  const locale = i18n.language as Locale;
  return (
    <section className="panel" aria-labelledby="school-detail-title">
      <p>
        <Link to={localizePath("/school", locale)}>{t("school.back")}</Link>
      </p>
      <h1 id="school-detail-title" className="page-title">
        {loaderData.name}
      </h1>
      <h2>
        {t("school.school_members")} <span className="site-meta">{t("school.members", { count: loaderData.memberCount })}</span>
      </h2>
      <ul className="site-list" data-testid="school-members">
        {loaderData.members.map((member) => (
          <li key={member.username}>
            <Link to={localizePath(`/profile/${member.username}`, locale)}>{member.nickname || member.username}</Link>{" "}
            <span className="site-meta">@{member.username}</span>
          </li>
        ))}
      </ul>
      <h2>{t("school.school_writings")}</h2>
      {loaderData.writings.length === 0 ? (
        <p>{t("school.no_writings")}</p>
      ) : (
        <WritingList items={loaderData.writings} nextCursor={null} moreHref={() => ""} />
      )}
    </section>
  );
}
