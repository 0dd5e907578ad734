import { Link } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/school";
import { getAppContext, tagPage } from "../lib/context.server.ts";
import { localizePath, type Locale } from "../../common/locale.ts";
import { pageMeta } from "../lib/meta.ts";
import { schoolsTag } from "../../server/lib/cache-tags.ts";
import { presentMember } from "../../features/schools/operations.ts";
import { listHouses, listSchools } from "../../features/schools/service.ts";
import "../lib/site-pages-catalog.ts";
import { sitePagesStylesheets } from "../lib/site-pages-styles.ts";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "sitepages:school.title");
export const links = () => sitePagesStylesheets;

/** `/school`: the schools users named and the four Hogwarts houses; the same for everyone, cached under `schoolsTag` (a profile change drops it). */
export async function loader({ context }: Route.LoaderArgs) {
  const app = getAppContext(context);
  tagPage(app, schoolsTag);
  const [schools, houses] = await Promise.all([listSchools(app.db), listHouses(app.db)]);
  return { schools, houses: houses.map((house) => ({ ...house, sample: house.sample.map(presentMember) })) };
}

export default function School({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("sitepages");
  const locale = i18n.language as Locale;
  return (
    <section className="panel" aria-labelledby="school-title">
      <h1 id="school-title" className="page-title">
        {t("school.title")}
      </h1>
      <p>{t("school.intro")}</p>
      <p>
        <Link to={localizePath("/account/profile", locale)}>{t("school.set_yours")}</Link>
      </p>
      <h2>{t("school.schools")}</h2>
      {loaderData.schools.length === 0 ? (
        <p>{t("school.none")}</p>
      ) : (
        <ul className="site-list" data-testid="school-list">
          {loaderData.schools.map((school) => (
            <li key={school.name}>
              <Link to={localizePath(`/school/${encodeURIComponent(school.name)}`, locale)}>{school.name}</Link>{" "}
              <span className="site-meta">{t("school.members", { count: school.members })}</span>
            </li>
          ))}
        </ul>
      )}
      <h2>{t("school.hogwarts_heading")}</h2>
      <p>{t("school.hogwarts_intro")}</p>
      <ul className="house-grid" data-testid="house-list">
        {loaderData.houses.map((house) => (
          <li key={house.house} className="house-card" data-testid={`house-${house.house}`}>
            <h3>{t(`school.houses.${house.house}`)}</h3>
            <p className="site-meta">{t(`school.house_mottos.${house.house}`)}</p>
            <p>{t("school.house_members", { count: house.members })}</p>
            {house.sample.length > 0 ? (
              <p>
                {house.sample.map((member, index) => (
                  <span key={member.username}>
                    {index > 0 ? " · " : null}
                    <Link to={localizePath(`/profile/${member.username}`, locale)}>{member.nickname || member.username}</Link>
                  </span>
                ))}
              </p>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
