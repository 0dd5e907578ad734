import { Link } from "react-router";
import { useTranslation } from "../../lib/i18n.tsx";
import { localizePath, type Locale } from "../../../common/locale.ts";
import type { CircleTabView, CircleTabViewProps } from "../../lib/circle-tab-view.ts";
import type { QuestionListItem } from "../../../features/questions/types.ts";
import { EmptyState } from "../empty-state.tsx";
import { QuestionList } from "../question-parts.tsx";

/** A circle's newest or hottest questions, with Ask for members and a link to all of them. */
function QuestionsTab({ data, circleId, canWrite, moreHref }: CircleTabViewProps) {
  const { t, i18n } = useTranslation("circles");
  const locale = i18n.language as Locale;
  const list = data as { items: QuestionListItem[]; nextCursor: string | null };
  return (
    <>
      <p className="circle-write-links">
        {canWrite ? (
          <Link className="button button-primary" to={localizePath(`/circles/${circleId}/ask`, locale)} data-testid="ask-question">
            {t("questions:list.ask")}
          </Link>
        ) : null}{" "}
        <Link className="button" to={localizePath(`/circles/${circleId}/questions`, locale)} data-testid="all-questions">
          {t("questions:list.all_questions")}
        </Link>
      </p>
      {list.items.length > 0 ? (
        <QuestionList items={list.items} nextCursor={list.nextCursor} moreHref={moreHref} />
      ) : (
        <EmptyState description={t("questions:list.empty")} />
      )}
    </>
  );
}

export const views: Record<string, CircleTabView> = { questions: QuestionsTab };
