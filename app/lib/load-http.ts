import type { $Fetch } from "ofetch";

/** The HTTP layer (app/lib/http.ts) loads on first use, so pages that never call the API do not ship it. */
export const loadHttp = (): Promise<$Fetch> => import("./http.ts").then((module) => module.http);

/** The status of a failed call (ofetch's FetchError carries it), if any. */
export function failedStatus(error: unknown): number | undefined {
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  return typeof status === "number" ? status : undefined;
}

/** The JSON body of a failed call, if any. */
export function failedBody(error: unknown): { code?: unknown; message?: unknown } | undefined {
  const data = (error as { data?: unknown } | null)?.data;
  return data !== null && typeof data === "object" ? (data as { code?: unknown; message?: unknown }) : undefined;
}
