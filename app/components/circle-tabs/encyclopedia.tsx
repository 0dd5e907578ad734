import { Link } from "react-router";
import { useTranslation } from "../../lib/i18n.tsx";
import { localizePath, type Locale } from "../../../common/locale.ts";
import type { CircleTabView, CircleTabViewProps } from "../../lib/circle-tab-view.ts";
import type { EntryGroupItem } from "../../../features/encyclopedia/home.ts";
import { EmptyState } from "../empty-state.tsx";
import { EntryList } from "../entry-list.tsx";
import "../../lib/encyclopedia-catalog.ts";

/** A circle's encyclopedia: its entries, with Create entry for members. */
function EncyclopediaTab({ data, circleId, canWrite }: CircleTabViewProps) {
  const { t, i18n } = useTranslation("circles");
  const locale = i18n.language as Locale;
  const entries = data as EntryGroupItem[];
  return (
    <>
      {canWrite ? (
        <p className="circle-write-links">
          <Link
            className="button button-primary"
            to={localizePath(`/circles/${circleId}/encyclopedia/write`, locale)}
            data-testid="entry-create"
          >
            {t("encyclopedia:read.create")}
          </Link>
        </p>
      ) : null}
      {entries.length > 0 ? <EntryList entries={entries} /> : <EmptyState description={t("page.empty_encyclopedia")} />}
    </>
  );
}

export const views: Record<string, CircleTabView> = { encyclopedia: EncyclopediaTab };
