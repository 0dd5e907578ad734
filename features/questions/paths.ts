/** A question's page (without the /en prefix: `localizePath` adds it). */
export function questionPath(row: { id: number; circleId: number }): string {
  return `/circles/${row.circleId}/questions/${row.id}`;
}

/** An answer's own page: the question's path and the answerer's username. */
export function answerPath(question: { id: number; circleId: number }, username: string): string {
  return `${questionPath(question)}/${encodeURIComponent(username)}`;
}
