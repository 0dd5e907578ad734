import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { buildApp } from "../../server/app.ts";
import { loadConfig } from "../../server/config.ts";
import { createTestDatabase, type DatabaseKind, type TestDatabase } from "./database.ts";
import { ensureBuild } from "../../scripts/build-if-needed.ts";

export interface TestApi {
  app: FastifyInstance;
  database: TestDatabase;
  close(): Promise<void>;
}

/**
 * The real Fastify app (API only) on a fresh database; the sign-in puzzle is off unless asked for.
 * With `pages`, the server-rendered pages too (built first when sources changed; no page cache).
 */
export async function createTestApi(kind: DatabaseKind, options: { captcha?: boolean; pages?: boolean } = {}): Promise<TestApi> {
  if (options.pages) await ensureBuild();
  const database = await createTestDatabase(kind);
  const config = loadConfig({ DATA_DIR: mkdtempSync(path.join(tmpdir(), "circles-test-")), SESSION_SECRET: "test-secret", CAPTCHA: options.captcha ? "on" : "off" });
  const pages = options.pages ? { buildDirectory: path.resolve(import.meta.dirname, "../../build"), cache: false } : undefined;
  const app = await buildApp({ config, database, pages });
  await app.ready();
  return {
    app,
    database,
    close: async () => {
      await app.close();
      await database.dispose();
    },
  };
}

/** A cookie jar for app.inject, like a browser: keeps what Set-Cookie says, sends it back. */
export class Visitor {
  readonly cookies = new Map<string, string>();
  private readonly app: FastifyInstance;
  private readonly headers: Record<string, string>;
  constructor(app: FastifyInstance, headers: Record<string, string> = {}) {
    this.app = app;
    this.headers = headers;
  }

  async request(method: string, url: string, options: { json?: unknown; body?: string; headers?: Record<string, string>; csrf?: boolean } = {}): Promise<LightMyRequestResponse> {
    const headers: Record<string, string> = { ...this.headers, ...options.headers };
    if (options.csrf !== false && !["GET", "HEAD", "OPTIONS"].includes(method)) {
      if (!this.cookies.has("csrftoken")) await this.request("GET", "/api/get_csrf_token/");
      headers["x-csrftoken"] ??= this.cookies.get("csrftoken")!;
    }
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    let payload: string | undefined = options.body;
    if (options.json !== undefined) {
      payload = JSON.stringify(options.json);
      headers["content-type"] = "application/json";
    }
    const response = await this.app.inject({ method: method as "GET", url, headers, payload });
    for (const cookie of response.cookies as { name: string; value: string; maxAge?: number; expires?: Date }[]) {
      const expired = cookie.maxAge === 0 || (cookie.expires && cookie.expires.getTime() < Date.now());
      if (expired || cookie.value === "") this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
    return response;
  }

  get(url: string, headers?: Record<string, string>) {
    return this.request("GET", url, { headers });
  }

  post(url: string, json?: unknown, headers?: Record<string, string>) {
    return this.request("POST", url, { json, headers });
  }
}

let counter = 0;
/** Valid registration data with a unique username and email. */
export function newUser(overrides: Record<string, unknown> = {}) {
  counter += 1;
  const suffix = `${process.pid % 1000}${counter}`;
  return {
    username: `user_${suffix}`,
    email: `user${suffix}@example.com`,
    password: "secret123",
    confirm_password: "secret123",
    gender: "secret",
    birthday: "1995-06-15",
    country: "CN",
    ...overrides,
  };
}
