import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, type TestApi, type Visitor } from "../../tests/support/api.ts";
import { createSignedInUser } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { closeRenderer, renderQueue } from "./render.server.ts";

/** Holds every worker slot with jobs that do nothing until released, so requests queue up behind them. */
function holdAllSlots() {
  const releases: (() => void)[] = [];
  const held = Array.from({ length: renderQueue.slots }, (_, index) =>
    renderQueue.run(`test:holder${index}`, undefined, () => new Promise<void>((resolve) => releases.push(resolve))),
  );
  return async () => {
    for (const release of releases) release();
    await Promise.all(held);
  };
}

async function until(condition: () => boolean): Promise<void> {
  for (let waited = 0; !condition(); waited += 20) {
    if (waited > 20_000) throw new Error("condition not reached");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.each(databaseKinds)("render turns through the API on %s", (kind) => {
  let api: TestApi;
  let port: number;
  beforeAll(async () => {
    api = await createTestApi(kind);
    await api.app.listen({ port: 0, host: "127.0.0.1" });
    port = (api.app.server.address() as { port: number }).port;
  });
  afterAll(async () => {
    await api.close();
    await closeRenderer();
  });

  const preview = (visitor: Visitor, content: string, headers?: Record<string, string>) =>
    visitor.request("POST", "/api/content/preview/", { json: { content }, headers });

  it("keeps at most two of one user's renders waiting: one more at once is a localized 429, another user still gets a turn", async () => {
    const { visitor } = await createSignedInUser(api.app, api.database.db);
    await visitor.csrfToken();
    const release = holdAllSlots();
    const waiting = [preview(visitor, "一"), preview(visitor, "二")];
    await until(() => renderQueue.load.waiting === 2);
    const refused = await preview(visitor, "三", { "accept-language": "en" });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: "rendering_busy", message: expect.stringContaining("wait until they are done") });
    // Another user is not affected by the first one's pile.
    const { visitor: other } = await createSignedInUser(api.app, api.database.db);
    const others = preview(other, "别人的");
    await until(() => renderQueue.load.waiting === 3);
    await release();
    for (const answer of await Promise.all([...waiting, others])) expect(answer.statusCode, answer.body).toBe(200);
  }, 120_000);

  it("drops a waiting render when its client disconnects", async () => {
    const { visitor } = await createSignedInUser(api.app, api.database.db);
    const csrf = await visitor.csrfToken();
    const release = holdAllSlots();
    const client = httpRequest({
      host: "127.0.0.1",
      port,
      method: "POST",
      path: "/api/content/preview/",
      headers: {
        "content-type": "application/json",
        "x-csrftoken": csrf,
        cookie: [...visitor.cookies].map(([name, value]) => `${name}=${value}`).join("; "),
      },
    });
    client.on("error", () => undefined);
    client.end(JSON.stringify({ content: "# 走了就不排版" }));
    await until(() => renderQueue.load.waiting === 1);
    client.destroy();
    await until(() => renderQueue.load.waiting === 0);
    expect(renderQueue.load.running).toBe(renderQueue.slots);
    await release();
    expect(renderQueue.load).toEqual({ running: 0, waiting: 0 });
  }, 120_000);
});
