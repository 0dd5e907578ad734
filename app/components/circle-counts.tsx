import { useTranslation } from "../lib/i18n.tsx";
import "../lib/circles-catalog.ts";

export interface CountsView {
  members: number;
  subcircles: number;
  /** By count name, in the order the kinds register them (features/circles/counts.ts); null when the viewer may not read the circle's content. */
  content: Record<string, number> | null;
}

/**
 * "12 members · 3 sub-circles · 0 articles …": content counts only for those who may read the
 * content, one per name a registered kind counts under (`kinds:counts.<name>` is its label).
 * `nonZero` (the circle list) leaves out what there is none of: a row of zeros says nothing.
 */
export function CircleCounts({ counts, nonZero = false }: { counts: CountsView; nonZero?: boolean }) {
  const { t } = useTranslation("circles");
  const counted: [string, number][] = [
    ["counts.members", counts.members],
    ["counts.subcircles", counts.subcircles],
  ];
  if (counts.content)
    counted.push(...Object.entries(counts.content).map(([name, count]): [string, number] => [`kinds:counts.${name}`, count]));
  const parts = counted.filter(([, count]) => !nonZero || count > 0).map(([key, count]) => t(key, { count }));
  if (parts.length === 0) return null;
  return (
    <ul className="circle-counts" aria-label={t("counts.label")}>
      {parts.map((part) => (
        <li key={part}>{part}</li>
      ))}
    </ul>
  );
}
