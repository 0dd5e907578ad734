/**
 * Where an entry is read (without the /en prefix: `localizePath` adds it). A later language
 * version is read under its group's id: `/circles/{cid}/encyclopedia/{first version's id}/{lang}`.
 */
export function entryPath(entry: { id: number; circleId: number; translationOf?: number | null; language?: string }): string {
  if (entry.translationOf != null && entry.language)
    return `/circles/${entry.circleId}/encyclopedia/${entry.translationOf}/${entry.language}`;
  return `/circles/${entry.circleId}/encyclopedia/${entry.id}`;
}

/** The page of an entry's version in a language (which may not exist yet). */
export function entryVersionPath(circleId: number, groupId: number, language: string): string {
  return `/circles/${circleId}/encyclopedia/${groupId}/${language}`;
}

/** A disambiguation note in brackets of the entry's own language: "（数学）" or " (mathematics)". */
export function bracketed(note: string, language: string | undefined): string {
  return language === "en" ? ` (${note})` : `（${note}）`;
}
