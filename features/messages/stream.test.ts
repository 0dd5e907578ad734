import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AddressInfo } from "node:net";
import { createTestApi, type TestApi } from "../../tests/support/api.ts";
import { openStream } from "../../tests/support/sse.ts";
import { createSignedInUser } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import type { FastifyReply } from "fastify";
import { currentEventId, maxBufferedBytes, maxStreamsPerUser, write } from "./stream.ts";

describe.each(databaseKinds)("the live stream on %s", (kind) => {
  let api: TestApi;
  let base: string;
  beforeAll(async () => {
    api = await createTestApi(kind);
    await api.app.listen({ port: 0, host: "127.0.0.1" });
    base = `http://127.0.0.1:${(api.app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => api.close());
  const db = () => api.database.db;

  it("is for the signed-in user only: a visitor is 401, another user's id is 403", async () => {
    const { user, visitor } = await createSignedInUser(api.app, db());
    const { user: other } = await createSignedInUser(api.app, db());
    expect((await visitor.get(`/apiv2/sse?user_id=${other.id}`)).statusCode).toBe(403);
    const anonymous = await fetch(`${base}/apiv2/sse?user_id=${user.id}`);
    expect(anonymous.status).toBe(401);
  });

  it("pushes the follow counter and the new notification when someone follows, and replays after Last-Event-ID", async () => {
    const { user: star, visitor: starVisitor } = await createSignedInUser(api.app, db());
    const { user: fan, visitor: fanVisitor } = await createSignedInUser(api.app, db());
    const stream = openStream(base, starVisitor, star.id);
    await stream.opened;
    expect(stream.status()).toBe(200);
    await stream.waitFor((message) => message.data.sse_type === "subscription" && message.data.unread_follow_count === 0);

    expect((await fanVisitor.request("POST", `/api/Users/follow/${star.username}/`)).statusCode).toBe(200);
    await stream.waitFor((message) => message.data.sse_type === "subscription" && message.data.unread_follow_count === 1);
    const line = await stream.waitFor((message) => message.data.sse_type === "notification");
    expect(line.data.notification).toMatchObject({ category: "follow", actors: [{ username: fan.username }] });
    // The newest notification and private message ids sent so far.
    expect(line.id).toMatch(/^\d+-\d+$/);
    stream.close();

    // Missed while away: replayed from the table, after the last id the client saw.
    const [notificationId, chatId] = line.id!.split("-").map(Number);
    const replay = openStream(base, starVisitor, star.id, `${notificationId! - 1}-${chatId}`);
    await replay.opened;
    const again = await replay.waitFor((message) => message.data.sse_type === "notification");
    expect(again.id).toBe(line.id);
    replay.close();
  });

  it("starts a page's first connect where the page was rendered: what was committed in between is pushed", async () => {
    const { user: star, visitor: starVisitor } = await createSignedInUser(api.app, db());
    const { user: fan, visitor: fanVisitor } = await createSignedInUser(api.app, db());
    const { user: other } = await createSignedInUser(api.app, db());
    // The page renders (the root loader reads this position), then someone follows, then the page's script connects.
    const rendered = await currentEventId(db(), star.id);
    expect(rendered).toMatch(/^\d+-\d+$/);
    expect((await fanVisitor.request("POST", `/api/Users/follow/${star.username}/`)).statusCode).toBe(200);

    // Without the position a stream starts at the newest: the follow is counted, never pushed as a line.
    const fresh = openStream(base, starVisitor, star.id);
    await fresh.waitFor((message) => message.data.sse_type === "unread");
    expect(fresh.messages.filter((message) => message.data.sse_type === "notification")).toEqual([]);
    fresh.close();

    const resumed = openStream(base, starVisitor, star.id, undefined, `&last_event_id=${rendered}`);
    await resumed.opened;
    expect(resumed.status()).toBe(200);
    const line = await resumed.waitFor((message) => message.data.sse_type === "notification");
    expect(line.data.notification).toMatchObject({ category: "follow", actors: [{ username: fan.username }] });
    await resumed.waitFor((message) => message.data.sse_type === "subscription" && message.data.unread_follow_count === 1);
    resumed.close();

    // The position only picks where the user's own rows start: another user's stream is still refused, and a malformed one is a 400.
    expect((await starVisitor.get(`/apiv2/sse?user_id=${other.id}&last_event_id=${rendered}`)).statusCode).toBe(403);
    expect((await starVisitor.get(`/apiv2/sse?user_id=${star.id}&last_event_id=0-0;drop`)).statusCode).toBe(400);
  });

  it("delivers private messages live to both people, read receipts to the sender, and replays missed messages", async () => {
    const { user: a, visitor: aVisitor } = await createSignedInUser(api.app, db());
    const { user: b, visitor: bVisitor } = await createSignedInUser(api.app, db());
    const aStream = openStream(base, aVisitor, a.id);
    const bStream = openStream(base, bVisitor, b.id);
    await Promise.all([aStream.opened, bStream.opened]);
    await bStream.waitFor((message) => message.data.sse_type === "unread");

    const sent = (await aVisitor.post(`/api/chats/${b.username}/messages/`, { text: "live?" })).json() as { id: number };
    const received = await bStream.waitFor((message) => message.data.sse_type === "chat");
    expect(received.data).toMatchObject({ peer: a.username, message: { id: sent.id, text: "live?", mine: false } });
    await bStream.waitFor(
      (message) => message.data.sse_type === "unread" && (message.data.unread as { unread_private_chat: number }).unread_private_chat === 1,
    );
    // The sender's other tabs see it too.
    expect((await aStream.waitFor((message) => message.data.sse_type === "chat")).data).toMatchObject({
      peer: b.username,
      message: { mine: true },
    });

    expect((await bVisitor.post(`/api/chats/${a.username}/read/`, {})).statusCode).toBe(204);
    const receipt = await aStream.waitFor((message) => message.data.sse_type === "chat_read");
    expect(receipt.data).toEqual({ sse_type: "chat_read", peer: b.username, read_up_to: sent.id });
    bStream.close();

    // B was away: the next message is replayed after the last id B saw.
    const second = (await aVisitor.post(`/api/chats/${b.username}/messages/`, { text: "still there?" })).json() as { id: number };
    const replay = openStream(base, bVisitor, b.id, received.id);
    await replay.opened;
    const missed = await replay.waitFor((message) => message.data.sse_type === "chat");
    expect(missed.data).toMatchObject({ message: { id: second.id, text: "still there?" } });
    replay.close();
    aStream.close();
  });

  it("raises every connected user's announcement counter when a moderator publishes", async () => {
    const { user, visitor } = await createSignedInUser(api.app, db());
    const { visitor: moderator } = await createSignedInUser(api.app, db(), { siteRole: "moderator" });
    const stream = openStream(base, visitor, user.id);
    await stream.opened;
    const first = await stream.waitFor((message) => message.data.sse_type === "unread");
    const before = (first.data.unread as { unread_announcement_count: number }).unread_announcement_count;
    const published = await moderator.post("/api/announcements/", {
      title_zh: "通知",
      title_en: "Notice",
      body_zh: "内容",
      body_en: "Text",
    });
    expect(published.statusCode).toBe(201);
    await stream.waitFor(
      (message) =>
        message.data.sse_type === "unread" &&
        (message.data.unread as { unread_announcement_count: number }).unread_announcement_count === before + 1,
    );
    stream.close();
  });
  it("keeps at most eight streams per user: a ninth closes the oldest, the others still hear every change", async () => {
    const { user: star, visitor: starVisitor } = await createSignedInUser(api.app, db());
    const { visitor: fanVisitor } = await createSignedInUser(api.app, db());
    const streams = [];
    for (let index = 0; index < maxStreamsPerUser + 1; index++) {
      const stream = openStream(base, starVisitor, star.id);
      await stream.waitFor((message) => message.data.sse_type === "unread");
      streams.push(stream);
    }
    const [oldest, ...rest] = streams;
    for (let tries = 0; tries < 100 && !oldest!.ended(); tries++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(oldest!.ended()).toBe(true);
    expect(rest.some((stream) => stream.ended())).toBe(false);
    expect((await fanVisitor.request("POST", `/api/Users/follow/${star.username}/`)).statusCode).toBe(200);
    for (const stream of rest) await stream.waitFor((message) => message.data.sse_type === "notification");
    for (const stream of rest) stream.close();
  });

  it("drops a stream whose reader lets too much wait unread", () => {
    let destroyed = false;
    const raw = {
      destroyed: false,
      writableLength: 0,
      write(chunk: string) {
        this.writableLength += chunk.length;
        return false;
      },
      destroy() {
        destroyed = true;
        this.destroyed = true;
      },
    };
    const stream = { reply: { raw } as unknown as FastifyReply, lastId: 0, lastChatId: 0 };
    const line = JSON.stringify({ sse_type: "unread", text: "x".repeat(1000) });
    while (!destroyed && raw.writableLength <= maxBufferedBytes + 2000) write(stream, line);
    expect(destroyed).toBe(true);
    expect(raw.writableLength).toBeLessThanOrEqual(maxBufferedBytes + 1100);
  });
});
