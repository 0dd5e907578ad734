import { Link } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import { localizePath, type Locale } from "../../common/locale.ts";
import { ShopIcon } from "./shop-icons.tsx";
import "../lib/wallet-catalog.ts";

export interface HighlightedWriting {
  writing_id: number;
  title: string;
  path: string;
}

/** The writings their authors highlighted in this circle (a shop item, 24 hours each), above the lists. */
export function HighlightedList({ highlights }: { highlights: HighlightedWriting[] }) {
  const { t, i18n } = useTranslation("wallet");
  const locale = i18n.language as Locale;
  if (highlights.length === 0) return null;
  return (
    <section className="highlighted" aria-labelledby="highlighted-title">
      <h2 id="highlighted-title" className="visually-hidden">
        {t("shop.highlighted")}
      </h2>
      <ol className="pinned-list highlighted-list" data-testid="highlighted-list">
        {highlights.map((highlight) => (
          <li key={highlight.writing_id}>
            <span className="highlighted-mark">
              <ShopIcon item="highlight_24h" size="1.1em" /> {t("shop.highlighted")}
            </span>{" "}
            <Link to={localizePath(highlight.path, locale)}>{highlight.title}</Link>
          </li>
        ))}
      </ol>
    </section>
  );
}
