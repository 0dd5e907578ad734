import { useTranslation } from "../lib/i18n.tsx";
import "../lib/circles-catalog.ts";

export interface CountsView {
  members: number;
  subcircles: number;
  /** Null when the viewer may not read the circle's content. */
  content: { articles: number; books: number; posts: number; questions: number; entries: number } | null;
}

/**
 * "12 members · 3 sub-circles · 0 articles …": content counts only for those who may read the
 * content. `nonZero` (the circle list) leaves out what there is none of: a row of zeros says nothing.
 */
export function CircleCounts({ counts, nonZero = false }: { counts: CountsView; nonZero?: boolean }) {
  const { t } = useTranslation("circles");
  const counted: [string, number][] = [
    ["members", counts.members],
    ["subcircles", counts.subcircles],
  ];
  if (counts.content) {
    const { articles, books, posts, entries, questions } = counts.content;
    counted.push(["articles", articles], ["books", books], ["posts", posts], ["entries", entries], ["questions", questions]);
  }
  const parts = counted.filter(([, count]) => !nonZero || count > 0).map(([key, count]) => t(`counts.${key}`, { count }));
  if (parts.length === 0) return null;
  return (
    <ul className="circle-counts" aria-label={t("counts.label")}>
      {parts.map((part) => (
        <li key={part}>{part}</li>
      ))}
    </ul>
  );
}
