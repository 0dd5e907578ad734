import { Link } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import { localizePath, type Locale } from "../../common/locale.ts";
import { bracketed, entryPath } from "../../features/encyclopedia/paths.ts";

/** Entries as links, each with its disambiguation note (the circle's encyclopedia tab, a writing's related entries). */
export function EntryList({
  entries,
  testId,
}: {
  entries: { id: number; circleId: number; name: string; disambiguation: string | null; language?: string }[];
  testId?: string;
}) {
  const { i18n } = useTranslation();
  const locale = i18n.language as Locale;
  return (
    <ul className="entry-list" data-testid={testId}>
      {entries.map((entry) => (
        <li key={entry.id}>
          <Link to={localizePath(entryPath(entry), locale)} lang={entry.language}>
            {entry.name}
          </Link>
          {entry.disambiguation ? <span className="muted">{bracketed(entry.disambiguation, entry.language)}</span> : null}
        </li>
      ))}
    </ul>
  );
}
