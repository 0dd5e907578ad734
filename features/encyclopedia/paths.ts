/** Where an entry is read (without the /en prefix: `localizePath` adds it). */
export function entryPath(entry: { id: number; circleId: number }): string {
  return `/circles/${entry.circleId}/encyclopedia/${entry.id}`;
}
