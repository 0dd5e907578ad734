import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, Visitor, type TestApi } from "../../tests/support/api.ts";
import { createSignedInUser } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { testPng } from "../../tests/support/images.ts";
import { chatMessages } from "../../server/db/schema/index.ts";
import { invalidate } from "../../server/lib/invalidation.ts";
import { unreadTag } from "../messages/unread-memory.ts";
import { chatPageSize, chatRateLimits } from "./service.ts";

interface MessageAnswer {
  id: number;
  sender: string;
  recipient: string;
  mine: boolean;
  text: string | null;
  image_url: string | null;
  read: boolean;
}

describe.each(databaseKinds)("private chat API on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind);
  });
  afterAll(() => api.close());

  const pair = async () => {
    const a = await createSignedInUser(api.app, api.database.db);
    const b = await createSignedInUser(api.app, api.database.db);
    return { a, b };
  };
  const unreadChats = async (visitor: Visitor) => (await visitor.get("/api/Users/get_unread")).json().unread_private_chat as number;

  it("sends, lists conversations with unread counts, reads with receipts and zeroes the counter", async () => {
    const { a, b } = await pair();
    const sent = await a.visitor.post(`/api/chats/${b.user.username}/messages/`, { text: "  你好 Bob  " });
    expect(sent.statusCode).toBe(201);
    expect(sent.json()).toMatchObject({ sender: a.user.username, recipient: b.user.username, mine: true, text: "你好 Bob", read: false });
    await a.visitor.post(`/api/chats/${b.user.username}/messages/`, { text: "second" });
    expect(await unreadChats(b.visitor)).toBe(2);

    const list = (await b.visitor.get("/api/chats/")).json();
    expect(list.results).toHaveLength(1);
    expect(list.results[0]).toMatchObject({
      peer: { username: a.user.username },
      unread_count: 2,
      last_message: { text: "second", mine: false },
    });

    const thread = (await b.visitor.get(`/api/chats/${a.user.username}/messages/`)).json();
    expect(thread.results.map((message: MessageAnswer) => message.text)).toEqual(["second", "你好 Bob"]);
    expect(thread).toMatchObject({ next_before: null, you_blocked: false, blocked_you: false });

    const read = await b.visitor.post(`/api/chats/${a.user.username}/read/`, {});
    expect(read.statusCode).toBe(204);
    expect(await unreadChats(b.visitor)).toBe(0);
    const receipts = (await a.visitor.get(`/api/chats/${b.user.username}/messages/`)).json();
    expect(receipts.results.every((message: MessageAnswer) => message.read && message.mine)).toBe(true);
    expect((await b.visitor.get("/api/chats/")).json().results[0].unread_count).toBe(0);
  });

  it("sends an image uploaded by the sender, and refuses someone else's file or an empty message", async () => {
    const { a, b } = await pair();
    const upload = (await a.visitor.upload("/api/uploads/", { bytes: await testPng(), filename: "p.png" })).json() as { file_id: string };
    const sent = await a.visitor.post(`/api/chats/${b.user.username}/messages/`, { image_file_id: upload.file_id });
    expect(sent.statusCode).toBe(201);
    expect(sent.json()).toMatchObject({ text: null, image_url: `/attach/${upload.file_id}` });
    const stolen = await b.visitor.post(`/api/chats/${a.user.username}/messages/`, { image_file_id: upload.file_id });
    expect(stolen.statusCode).toBe(400);
    expect(stolen.json().code).toBe("image_invalid");
    const empty = await a.visitor.post(`/api/chats/${b.user.username}/messages/`, { text: "   " });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ code: "validation_failed" });
  });

  it("pages older messages with before", async () => {
    const { a, b } = await pair();
    await api.database.db
      .insert(chatMessages)
      .values(Array.from({ length: chatPageSize + 5 }, (_, index) => ({ senderId: a.user.id, recipientId: b.user.id, text: `m${index}` })));
    await invalidate([unreadTag(b.user.id)]);
    const first = (await b.visitor.get(`/api/chats/${a.user.username}/messages/`)).json();
    expect(first.results).toHaveLength(chatPageSize);
    expect(first.results[0].text).toBe(`m${chatPageSize + 4}`);
    const older = (await b.visitor.get(`/api/chats/${a.user.username}/messages/?before=${first.next_before}`)).json();
    expect(older.results.map((message: MessageAnswer) => message.text)).toEqual(["m4", "m3", "m2", "m1", "m0"]);
    expect(older.next_before).toBeNull();
  });

  it("keeps conversations private: only one's own, never with oneself, unknown users not found, visitors asked to log in", async () => {
    const { a, b } = await pair();
    const { user: c, visitor: outsider } = await createSignedInUser(api.app, api.database.db);
    await a.visitor.post(`/api/chats/${b.user.username}/messages/`, { text: "between us" });
    expect((await outsider.get("/api/chats/")).json().results).toEqual([]);
    // Naming B shows C's own conversation with B (none), never A's.
    expect((await outsider.get(`/api/chats/${b.user.username}/messages/`)).json().results).toEqual([]);
    expect((await outsider.get(`/api/chats/${c.username}/messages/`)).statusCode).toBe(404);
    expect((await a.visitor.post(`/api/chats/${a.user.username}/messages/`, { text: "me" })).json().code).toBe("not_found");
    expect((await a.visitor.get("/api/chats/nobody_here/messages/")).statusCode).toBe(404);
    const anonymous = new Visitor(api.app);
    expect((await anonymous.get("/api/chats/")).statusCode).toBe(401);
    expect((await anonymous.post(`/api/chats/${b.user.username}/messages/`, { text: "hi" })).statusCode).toBe(401);
  });

  it("limits the sending rate with a localized message", async () => {
    const { a, b } = await pair();
    const [burst] = chatRateLimits;
    await api.database.db
      .insert(chatMessages)
      .values(Array.from({ length: burst.max }, () => ({ senderId: a.user.id, recipientId: b.user.id, text: "spam" })));
    const english = await a.visitor.post(`/api/chats/${b.user.username}/messages/`, { text: "one more" }, { "accept-language": "en" });
    expect(english.statusCode).toBe(429);
    expect(english.json().code).toBe("chat_rate_limited");
    expect(english.json().message).toMatch(/^You are sending messages too fast\. Please wait \d+ s\.$/);
    const chinese = await a.visitor.post(`/api/chats/${b.user.username}/messages/`, { text: "再来" }, { "accept-language": "zh-CN" });
    expect(chinese.json().message).toMatch(/^发送太快了，请等 \d+ 秒再发。$/);
  });

  it("blocks: the blocked user is told they cannot message, the blocker too, until unblocked", async () => {
    const { a, b } = await pair();
    const block = await b.visitor.request("PUT", `/api/Users/block/${a.user.username}/`);
    expect(block.statusCode).toBe(200);
    expect(block.json()).toEqual({ blocked: true });
    expect((await b.visitor.request("PUT", `/api/Users/block/${a.user.username}/`)).json()).toEqual({ blocked: true });

    const refused = await a.visitor.post(`/api/chats/${b.user.username}/messages/`, { text: "hello?" }, { "accept-language": "en" });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ code: "chat_blocked", message: "This user has blocked you: you can't send them messages." });
    const refusedZh = await a.visitor.post(`/api/chats/${b.user.username}/messages/`, { text: "在吗" }, { "accept-language": "zh-CN" });
    expect(refusedZh.json().message).toBe("对方已将你拉黑，你无法给对方发私信。");
    const own = await b.visitor.post(`/api/chats/${a.user.username}/messages/`, { text: "bye" }, { "accept-language": "en" });
    expect(own.json()).toEqual({ code: "chat_you_blocked", message: "You have blocked this user. Unblock them to send a message." });
    expect((await a.visitor.get(`/api/chats/${b.user.username}/messages/`)).json()).toMatchObject({
      blocked_you: true,
      you_blocked: false,
    });
    expect(await unreadChats(b.visitor)).toBe(0);

    expect((await b.visitor.request("DELETE", `/api/Users/block/${a.user.username}/`)).json()).toEqual({ blocked: false });
    expect((await a.visitor.post(`/api/chats/${b.user.username}/messages/`, { text: "again" })).statusCode).toBe(201);
    const self = await a.visitor.request("PUT", `/api/Users/block/${a.user.username}/`);
    expect(self.statusCode).toBe(400);
    expect(self.json().code).toBe("cannot_block_self");
    expect((await a.visitor.request("PUT", "/api/Users/block/nobody_here/")).statusCode).toBe(404);
  });
});
