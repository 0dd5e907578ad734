import type { ReactNode } from "react";
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

/** An entry as listed: its versions' names and languages, its disambiguation note, its other versions. */
export interface ListedEntry extends ListedVersion {
  disambiguation?: string | null;
  others?: readonly ListedVersion[];
}

/** An entry's name as a link, its disambiguation note and, on site-wide lists, its circle. */
function EntryName({ entry, circleName }: { entry: ListedEntry; circleName?: string }) {
  const { i18n } = useTranslation();
  const locale = i18n.language as Locale;
  return (
    <>
      <Link to={localizePath(entryPath(entry), locale)} lang={entry.language}>
        {entry.name}
      </Link>
      {entry.disambiguation ? <span className="muted">{bracketed(entry.disambiguation, entry.language)}</span> : null}
      {circleName ? (
        <>
          {" "}
          <Link className="muted wiki-entry-circle" to={localizePath(`/circles/${entry.circleId}`, locale)}>
            {circleName}
          </Link>
        </>
      ) : null}
    </>
  );
}

/**
 * Entries as links, one row each: the name with its disambiguation note, its circle on site-wide
 * lists (`circleNames`), its other language versions, then what the list adds (`detail`: views,
 * the date of the last edit, aliases). The wiki homes (site-wide and a circle's), the circle's
 * encyclopedia tab and a writing's related entries all list entries through it.
 */
export function EntryList<T extends ListedEntry>({
  entries,
  testId,
  ordered = false,
  circleNames,
  detail,
}: {
  entries: readonly T[];
  testId?: string;
  /** A ranked list (hot, featured): numbered. */
  ordered?: boolean;
  circleNames?: Readonly<Record<number, string>>;
  detail?: (entry: T) => ReactNode;
}) {
  const Tag = ordered ? "ol" : "ul";
  return (
    <Tag className="entry-list" data-testid={testId}>
      {entries.map((entry) => (
        <li key={entry.id}>
          <EntryName entry={entry} circleName={circleNames?.[entry.circleId]} />
          <EntryVersionLinks versions={entry.others} />
          {detail ? <> {detail(entry)}</> : null}
        </li>
      ))}
    </Tag>
  );
}
