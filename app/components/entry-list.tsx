import { Link } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import { localizePath, type Locale } from "../../common/locale.ts";
import { bracketed, entryPath } from "../../features/encyclopedia/paths.ts";

interface ListedVersion {
  id: number;
  circleId: number;
  name: string;
  language: string;
  translationOf?: number | null;
}

/** An entry's other language versions as small links ("Also in: English") beside the version listed. */
export function EntryVersionLinks({ versions }: { versions: readonly ListedVersion[] | undefined }) {
  const { t, i18n } = useTranslation("encyclopedia");
  const locale = i18n.language as Locale;
  if (!versions || versions.length === 0) return null;
  return (
    <span className="entry-versions muted" data-testid="entry-versions">
      {" "}
      · {t("read.versions")}{" "}
      {versions.map((version, index) => (
        <span key={version.id}>
          {index > 0 ? ", " : null}
          <Link
            className="entry-version-link"
            to={localizePath(entryPath(version), locale)}
            hrefLang={version.language}
            title={version.name}
          >
            {t(`languages.${version.language}`)}
          </Link>
        </span>
      ))}
    </span>
  );
}

/**
 * Entries as links, each with its disambiguation note and, for the circle's encyclopedia tab (one
 * row per entry), its other language versions (a writing's related entries list versions as named).
 */
export function EntryList({
  entries,
  testId,
}: {
  entries: (ListedVersion & { disambiguation: string | null; others?: readonly ListedVersion[] })[];
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
          <EntryVersionLinks versions={entry.others} />
        </li>
      ))}
    </ul>
  );
}
