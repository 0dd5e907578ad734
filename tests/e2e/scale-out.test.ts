import { spawn, type ChildProcess } from "node:child_process";
import http from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, stop, waitUntilServing } from "./global-setup.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { createSessionFor, createUser } from "../support/factories.ts";
import { sql } from "drizzle-orm";

/**
 * Two server processes on one PostgreSQL: a client whose stream is on process B receives what was
 * committed through process A (fan-out by LISTEN/NOTIFY). Only with `TEST_DATABASE_URL`.
 */
async function startOn(databaseUrl: string, dataDir: string): Promise<{ server: ChildProcess; baseURL: string }> {
  const port = await freePort();
  const server = spawn(process.execPath, ["server/main.ts"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      SESSION_SECRET: "two-processes-share-one-secret",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const baseURL = `http://127.0.0.1:${port}`;
  await waitUntilServing(baseURL, server);
  return { server, baseURL };
}

/** The stream's JSON messages, as they arrive. */
function listen(baseURL: string, userId: number, token: string) {
  const messages: Record<string, unknown>[] = [];
  const request = http.get(`${baseURL}/apiv2/sse?user_id=${userId}`, { headers: { cookie: `sessionid=${token}` } }, (response) => {
    let buffer = "";
    response.setEncoding("utf8");
    response.on("data", (chunk: string) => {
      buffer += chunk;
      let end: number;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const data = /^data: (.*)$/m.exec(buffer.slice(0, end))?.[1];
        buffer = buffer.slice(end + 2);
        if (data) messages.push(JSON.parse(data) as Record<string, unknown>);
      }
    });
  });
  request.on("error", () => undefined);
  let ended = false;
  request.on("response", (response) => response.on("close", () => (ended = true)));
  return { messages, close: () => request.destroy(), ended: () => ended };
}

async function postAs(baseURL: string, token: string, url: string, body: unknown): Promise<Response> {
  const answer = await fetch(`${baseURL}/api/get_csrf_token/`, { headers: { cookie: `sessionid=${token}` } });
  const { csrftoken } = (await answer.json()) as { csrftoken: string };
  return fetch(`${baseURL}${url}`, {
    method: "POST",
    headers: { cookie: `sessionid=${token}; csrftoken=${csrftoken}`, "x-csrftoken": csrftoken, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

describe.skipIf(!process.env.TEST_DATABASE_URL)("two server processes on one PostgreSQL", () => {
  let database: TestDatabase;
  const dataDirs = [mkdtempSync(path.join(tmpdir(), "circles-a-")), mkdtempSync(path.join(tmpdir(), "circles-b-"))];
  const servers: { server: ChildProcess; baseURL: string }[] = [];
  beforeAll(async () => {
    database = await createTestDatabase("postgres");
    for (const dataDir of dataDirs) servers.push(await startOn(database.url!, dataDir));
  }, 400_000);
  afterAll(async () => {
    for (const { server } of servers) await stop(server);
    await database?.dispose();
    for (const dataDir of dataDirs) rmSync(dataDir, { recursive: true, force: true });
  });

  it("delivers on process B what process A committed: a private message, a follow and its counter", async () => {
    const [a, b] = servers as [(typeof servers)[0], (typeof servers)[0]];
    const sender = await createUser(database.db);
    const recipient = await createUser(database.db);
    const [senderToken, recipientToken] = [await createSessionFor(database.db, sender), await createSessionFor(database.db, recipient)];
    const stream = listen(b.baseURL, recipient.id, recipientToken);
    await expect.poll(() => stream.messages.some((message) => message.sse_type === "unread")).toBe(true);

    expect((await postAs(a.baseURL, senderToken, `/api/chats/${recipient.username}/messages/`, { text: "across processes" })).status).toBe(
      201,
    );
    await expect
      .poll(() => stream.messages.find((message) => message.sse_type === "chat"))
      .toMatchObject({ peer: sender.username, message: { text: "across processes" } });

    expect((await postAs(a.baseURL, senderToken, `/api/Users/follow/${recipient.username}/`, {})).status).toBe(200);
    await expect
      .poll(() => stream.messages.find((message) => message.sse_type === "subscription" && message.unread_follow_count === 1))
      .toBeTruthy();
    stream.close();
  });

  it("caps one user's live streams across both processes: the oldest, on A, ends when B opens one too many", async () => {
    const [a, b] = servers as [(typeof servers)[0], (typeof servers)[0]];
    const user = await createUser(database.db);
    const token = await createSessionFor(database.db, user);
    const onA: ReturnType<typeof listen>[] = [];
    for (let index = 0; index < 8; index++) {
      const stream = listen(a.baseURL, user.id, token);
      await expect.poll(() => stream.messages.length).toBeGreaterThan(0);
      onA.push(stream);
    }
    const onB = listen(b.baseURL, user.id, token);
    await expect.poll(() => onB.messages.length).toBeGreaterThan(0);
    await expect.poll(() => onA[0]!.ended()).toBe(true);
    expect(onA.slice(1).some((stream) => stream.ended())).toBe(false);
    expect(onB.ended()).toBe(false);
    for (const stream of [...onA, onB]) stream.close();
  });

  it("teaches process B the name of an entry created through process A: B's index keeps it one word", async () => {
    const [a, b] = servers as [(typeof servers)[0], (typeof servers)[0]];
    const author = await createUser(database.db);
    const token = await createSessionFor(database.db, author);
    // B has read its dictionary already (a search loads it once): only the signal can teach it more.
    expect((await fetch(`${b.baseURL}/api/search/?q=${encodeURIComponent("书院")}`)).status).toBe(200);
    // Unknown to the dictionary, 星空书院 is two words (星空, 书院) until an entry teaches it.
    const entry = await postAs(a.baseURL, token, "/api/circles/1/encyclopedia/entries/", {
      name: "星空书院",
      aliases: [],
      content: "一所只在夜里开门的书院。",
    });
    expect(entry.status, await entry.clone().text()).toBe(201);
    const keptWhole = async (writingId: number) => {
      const result = await database.db.execute<{ whole: boolean }>(
        sql`select terms @@ ${"'星空书院'"}::tsquery as whole from search_documents where type = 'writing' and id = ${writingId}`,
      );
      return (result as unknown as { rows: { whole: boolean }[] }).rows[0]?.whole ?? false;
    };
    // Process B learns it from A's signal (NOTIFY) before its next indexing: a writing published there is indexed with the word.
    await expect
      .poll(
        async () => {
          const published = await postAs(b.baseURL, token, "/api/circles/1/writings/", {
            title: "夜读记",
            content: "我们在星空书院读书，直到天亮。",
          });
          expect(published.status).toBe(201);
          return keptWhole(((await published.json()) as { id: number }).id);
        },
        { timeout: 60_000, interval: 300 },
      )
      .toBe(true);
  });
});
