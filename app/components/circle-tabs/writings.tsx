import { Link } from "react-router";
import { useTranslation } from "../../lib/i18n.tsx";
import { localizePath, type Locale } from "../../../common/locale.ts";
import type { CircleTabView, CircleTabViewProps } from "../../lib/circle-tab-view.ts";
import type { WritingListPage } from "../../../features/writings/queries.ts";
import { editorPath } from "../../../features/writings/paths.ts";
import { EmptyState } from "../empty-state.tsx";
import { WritingList } from "../writing-list.tsx";
import { HighlightedList } from "../circle-highlights.tsx";

interface WritingsTabData {
  list: WritingListPage;
  highlights: { writing_id: number; title: string; path: string }[];
}

/** A circle's articles or posts: the shop's highlights, a write button for members, the list. */
function WritingsTab({ name, data, circleId, canWrite, moreHref, pinControls }: CircleTabViewProps) {
  const { t, i18n } = useTranslation("circles");
  const locale = i18n.language as Locale;
  const { list, highlights } = data as WritingsTabData;
  const posts = name === "posts";
  return (
    <>
      <HighlightedList highlights={highlights} />
      {canWrite ? (
        <p className="circle-write-links">
          <Link
            className="button button-primary"
            to={localizePath(editorPath(circleId, posts ? "post" : "article"), locale)}
            data-testid={`write-${name}`}
          >
            {t(posts ? "writings:list.write_post" : "writings:list.write_article")}
          </Link>
        </p>
      ) : null}
      {list.items.length > 0 ? (
        <WritingList
          items={list.items}
          nextCursor={list.nextCursor}
          moreHref={moreHref}
          actions={(item) => pinControls("writing", item.id)}
        />
      ) : (
        <EmptyState description={t(`page.empty_${name}`)} />
      )}
    </>
  );
}

export const views: Record<string, CircleTabView> = { articles: WritingsTab, posts: WritingsTab };
