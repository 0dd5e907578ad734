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
 * the visitor has none).
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
    pendingToken ??= base<{ csrftoken: string }>("/api/get_csrf_token/").then((answer) => answer.csrftoken).finally(() => (pendingToken = undefined));
    return pendingToken;
  };
  return base.create({
    async onRequest({ options: request }) {
      const method = (request.method ?? "GET").toUpperCase();
      if (!unsafeMethods.has(method)) return;
      const headers = new Headers(request.headers);
      headers.set("x-csrftoken", await csrfToken());
      request.headers = headers;
    },
  } satisfies FetchOptions);
}

function browserCookie(name: string): string | undefined {
  if (typeof document === "undefined") return undefined;
  const match = document.cookie.split("; ").find((part) => part.startsWith(`${name}=`));
  return match ? decodeURIComponent(match.slice(name.length + 1)) : undefined;
}

export const http = createHttp();
