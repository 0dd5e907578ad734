/**
 * A small POST of JSON for the reading pages' buttons, without the HTTP client's weight (a reading
 * page's first load stays within its JavaScript budget): the CSRF header from the `csrftoken`
 * cookie, fetched first when the visitor has none. Resolves to the answer, or null when refused.
 */
export async function postJson<T>(url: string, body: unknown = {}): Promise<T | null> {
  let token = document.cookie
    .split("; ")
    .find((part) => part.startsWith("csrftoken="))
    ?.slice("csrftoken=".length);
  if (!token) {
    const answer = await fetch("/api/get_csrf_token/", { credentials: "same-origin", headers: { accept: "application/json" } });
    if (!answer.ok) return null;
    token = ((await answer.json()) as { csrftoken: string }).csrftoken;
  }
  const response = await fetch(url, {
    method: "POST",
    credentials: "same-origin",
    headers: { "content-type": "application/json", accept: "application/json", "x-csrftoken": decodeURIComponent(token) },
    body: JSON.stringify(body),
  });
  return response.ok ? ((await response.json()) as T) : null;
}
