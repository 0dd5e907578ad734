/** Upload one image through the attachment API (`POST /api/uploads/`); resolves to its id and URL. */
export async function uploadImage(file: File, csrfToken: string): Promise<{ file_id: string; url: string }> {
  const body = new FormData();
  body.append("file", file);
  const response = await fetch("/api/uploads/", {
    method: "POST",
    body,
    headers: { "x-csrftoken": csrfToken },
    credentials: "same-origin",
  });
  const answer = (await response.json().catch(() => ({}))) as { file_id?: string; url?: string; message?: string };
  if (!response.ok || !answer.url || !answer.file_id) throw new Error(answer.message ?? String(response.status));
  return { file_id: answer.file_id, url: answer.url };
}
