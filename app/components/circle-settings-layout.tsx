import type { ReactNode } from "react";
import { Link, NavLink } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import { localizePath, type Locale } from "../../common/locale.ts";
import "../lib/circles-catalog.ts";

const sections = [
  { key: "general", path: "/settings" },
  { key: "i18n", path: "/settings/i18n" },
  { key: "members", path: "/settings/members" },
  { key: "categories", path: "/settings/categories" },
  { key: "reports", path: "/settings/reports" },
] as const;

/** The management pages (and the moderators' reports queue) share a heading, a way back to the circle and their navigation. */
export function CircleSettingsLayout({
  circle,
  title,
  notice,
  children,
}: {
  circle: { id: number; name: string };
  title: string;
  notice?: string | null;
  children: ReactNode;
}) {
  const { t, i18n } = useTranslation("circles");
  const locale = i18n.language as Locale;
  const base = `/circles/${circle.id}`;
  return (
    <section className="panel circle-settings" aria-labelledby="settings-title">
      <p>
        <Link to={localizePath(base, locale)}>← {t("settings.back")}</Link>
      </p>
      <h1 id="settings-title" className="page-title">
        {circle.name} · {title}
      </h1>
      <nav className="tabs-nav" aria-label={t("settings.nav")}>
        {sections.map((section) => (
          <NavLink key={section.key} to={localizePath(`${base}${section.path}`, locale)} end>
            {t(`settings.${section.key}`)}
          </NavLink>
        ))}
      </nav>
      {notice ? (
        <p className="notice" role="status">
          {notice}
        </p>
      ) : null}
      {children}
    </section>
  );
}

/** The error of a whole form (already in the viewer's language). */
export function FormAlert({ message }: { message: string | undefined }) {
  if (!message) return null;
  return (
    <p className="form-alert form-alert-error" role="alert">
      {message}
    </p>
  );
}
