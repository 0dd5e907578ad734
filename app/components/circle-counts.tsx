import { useTranslation } from "../lib/i18n.tsx";
import "../lib/circles-catalog.ts";

export interface CountsView {
  members: number;
  subcircles: number;
  /** Null when the viewer may not read the circle's content. */
  content: { articles: number; books: number; posts: number; questions: number; entries: number } | null;
}

/** "12 members · 3 sub-circles · 0 articles …": content counts only for those who may read the content. */
export function CircleCounts({ counts }: { counts: CountsView }) {
  const { t } = useTranslation("circles");
  const parts = [t("counts.members", { count: counts.members }), t("counts.subcircles", { count: counts.subcircles })];
  if (counts.content) {
    const { articles, books, posts, entries, questions } = counts.content;
    parts.push(
      t("counts.articles", { count: articles }),
      t("counts.books", { count: books }),
      t("counts.posts", { count: posts }),
      t("counts.entries", { count: entries }),
      t("counts.questions", { count: questions }),
    );
  }
  return (
    <ul className="circle-counts" aria-label={t("counts.label")}>
      {parts.map((part) => (
        <li key={part}>{part}</li>
      ))}
    </ul>
  );
}
