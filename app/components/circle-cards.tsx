import { Link } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import { localizePath, type Locale } from "../../common/locale.ts";
import { CircleLogo } from "./circle-logo.tsx";

export interface CircleCard {
  id: number;
  name: string;
  description: string;
  logo: string | null;
  childCount?: number;
}

/** A grid of circles linking to their pages (home, search results, sub-circles). */
export function CircleCards({ circles }: { circles: CircleCard[] }) {
  const { t, i18n } = useTranslation("common");
  const locale = i18n.language as Locale;
  return (
    <ul className="circle-grid">
      {circles.map((circle) => (
        <li key={circle.id}>
          <Link to={localizePath(`/circles/${circle.id}`, locale)} className="circle-card">
            <CircleLogo circle={circle} size={44} locale={locale} />
            <span>
              <strong>{circle.name}</strong>
              {circle.childCount ? <span className="muted"> · {t("circles.subcircle_count", { count: circle.childCount })}</span> : null}
              <br />
              <span className="muted">{circle.description}</span>
            </span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
