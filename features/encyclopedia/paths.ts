/** Where an entry is read (without the /en prefix: `localizePath` adds it). */
export function entryPath(entry: { id: number; circleId: number }): string {
  return `/circles/${entry.circleId}/encyclopedia/${entry.id}`;
}

/** A disambiguation note in brackets of the entry's own language: "（数学）" or " (mathematics)". */
export function bracketed(note: string, language: string | undefined): string {
  return language === "en" ? ` (${note})` : `（${note}）`;
}
