import { ofetch, type $Fetch, type FetchOptions } from "ofetch";

/** Statuses retried once on GET/HEAD/OPTIONS; POST/PUT/PATCH/DELETE are never retried by default. */
export const retryStatusCodes = [408, 409, 425, 429, 500, 502, 503, 504];
const unsafeMethods = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export interface HttpOptions {
  baseURL?: string;
  /** Milliseconds before a request is aborted. */
  timeout?: number;
  fetch?: typeof fetch;
  /** Reads the csrftoken cookie (the browser's document.cookie by default). */
  readCookie?: (name: string) => string | undefined;
}

/**
 * The client's HTTP layer: base URL, query, JSON body, timeout, one retry on idempotent methods
 * for transient statuses, and the CSRF header on every unsafe request (fetching a token first when
 * the visitor has none, and once more when the server refuses the one the visitor has).
 */
export function createHttp(options: HttpOptions = {}): $Fetch {
  const readCookie = options.readCookie ?? browserCookie;
  const base = ofetch.create(
    {
      baseURL: options.baseURL ?? "",
      timeout: options.timeout ?? 15_000,
      retryStatusCodes,
      credentials: "same-origin",
      headers: { accept: "application/json" },
    },
    options.fetch ? { fetch: options.fetch } : undefined,
  );
  let pendingToken: Promise<string> | undefined;
  const csrfToken = async () => {
    const existing = readCookie("csrftoken");
    if (existing) return existing;
    pendingToken ??= base<{ csrftoken: string }>("/api/get_csrf_token/")
      .then((answer) => answer.csrftoken)
      .finally(() => (pendingToken = undefined));
    return pendingToken;
  };
  return base.create({
    async onRequest({ options: request }) {
      const method = (request.method ?? "GET").toUpperCase();
      if (!unsafeMethods.has(method) || (request as CsrfRetry).csrfRetried) return;
      const headers = new Headers(request.headers);
      headers.set("x-csrftoken", await csrfToken());
      request.headers = headers;
    },
    // The token is bound to the session: after the session ended elsewhere (another tab signed
    // out, the browser dropped the session cookie) the cookie's token is refused. The server did
    // nothing then, so the call is sent once more with the token it hands out now.
    async onResponseError({ options: request, response }) {
      const method = (request.method ?? "GET").toUpperCase();
      if (!unsafeMethods.has(method) || response.status !== 403 || (request as CsrfRetry).csrfRetried) return;
      if ((response._data as { code?: unknown } | undefined)?.code !== "csrf_failed") return;
      const fresh = await base<{ csrftoken: string }>("/api/get_csrf_token/");
      const headers = new Headers(request.headers);
      headers.set("x-csrftoken", fresh.csrftoken);
      Object.assign(request, {
        headers,
        retry: 1,
        retryStatusCodes: [403],
        retryDelay: 0,
        csrfRetried: true,
      } satisfies Partial<FetchOptions> & CsrfRetry);
    },
  } satisfies FetchOptions);
}

/** Marks the one repeat of a call refused for a stale CSRF token. */
interface CsrfRetry {
  csrfRetried?: boolean;
}

function browserCookie(name: string): string | undefined {
  if (typeof document === "undefined") return undefined;
  const match = document.cookie.split("; ").find((part) => part.startsWith(`${name}=`));
  return match ? decodeURIComponent(match.slice(name.length + 1)) : undefined;
}

export const http = createHttp();
