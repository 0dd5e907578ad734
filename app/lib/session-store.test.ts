import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createHttp } from "./http.ts";
import { createSessionStore } from "./session-store.ts";
import { anonymousUser, presentCurrentUser } from "../../features/accounts/presenter.ts";
import { zeroUnread } from "../../features/messages/schema.ts";

/** A real server whose auth and unread answers each test scripts. */
let server: Server;
let baseURL: string;
let answers: Record<string, { status: number; body?: unknown; headers?: Record<string, string> }>;
const calls: string[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    const path = request.url ?? "/";
    calls.push(`${request.method} ${path}`);
    const answer = answers[path] ?? { status: 404 };
    response.writeHead(answer.status, { "content-type": "application/json", ...answer.headers });
    response.end(answer.body === undefined ? "" : JSON.stringify(answer.body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  calls.length = 0;
  answers = {};
});

const member = presentCurrentUser({
  id: 7,
  username: "li",
  nickname: "Li",
  email: "li@example.com",
  phone: null,
  passwordHash: "",
  gender: "female",
  birthday: "2000-01-01",
  country: "CN",
  userType: "Registered users",
  avatar: null,
  avatarSmall: null,
  signature: "",
  selfDescription: "",
  intelligenceScore: 0,
  gold: 3,
  sinecoin: 5,
  school: "",
  profession: "",
  hogwartsSchool: "",
  sinecoinTotalProfit: 0,
  sinecoinTotalCashout: 0,
  cashoutableSinecoinProfit: 0,
  siteRole: "none",
  hiddenAt: null,
  suspendedUntil: null,
  suspensionReason: "",
  signupAddress: null,
  createdAt: new Date("2026-01-01T00:00:00Z"),
});
const unread = { ...zeroUnread, unread_like_count: 2, unread_favorite_count: 3, unread_follow_count: 1 };
const store = () => createSessionStore({ user: member, unread }, async () => createHttp({ baseURL, readCookie: () => "t.k" }));

describe("client session store", () => {
  it("keeps the user on code 100 and resets to defaults on another code", async () => {
    const session = store();
    answers["/api/Users/LoginAuth/"] = { status: 200, body: { code: 100, ...member, gold: 9 } };
    await session.refreshAuth();
    expect(session.get().user.gold).toBe(9);
    answers["/api/Users/LoginAuth/"] = { status: 200, body: { code: 101, ...anonymousUser } };
    await session.refreshAuth();
    expect(session.get().user).toEqual(anonymousUser);
  });

  it("resets the user on any auth error but keeps trying after a 500", async () => {
    const session = store();
    answers["/api/Users/LoginAuth/"] = { status: 500, body: { code: "internal" } };
    await session.refreshAuth();
    expect(session.get().user.user_id).toBe(0);
    expect(session.get().stopped).toBe(false);
  });

  it("stops every further auth and unread call after a 403", async () => {
    const session = store();
    answers["/api/Users/get_unread"] = { status: 403, body: { code: "forbidden" } };
    await session.refreshUnread();
    expect(session.get()).toMatchObject({ stopped: true, user: anonymousUser, unread: zeroUnread });
    calls.length = 0;
    await session.refreshAuth();
    await session.refreshUnread();
    expect(calls).toEqual([]);
  });

  it("marks like-favorite read on 204 and zeroes both counters", async () => {
    const session = store();
    answers["/api/Users/read_meg/like-favorite/"] = { status: 204 };
    expect(await session.markRead("like-favorite")).toBe(true);
    expect(session.get().unread).toMatchObject({ unread_like_count: 0, unread_favorite_count: 0, unread_follow_count: 1 });
    expect(calls).toEqual(["PATCH /api/Users/read_meg/like-favorite/"]);
  });

  it("never lets counters older than the ones held replace them, whichever way they arrive", async () => {
    const session = createSessionStore({ user: member, unread, unreadVersion: 5 }, async () =>
      createHttp({ baseURL, readCookie: () => "t.k" }),
    );
    answers["/api/Users/read_meg/follow/"] = { status: 204, headers: { "x-unread-version": "9" } };
    expect(await session.markRead("follow")).toBe(true);
    expect(session.get().unread.unread_follow_count).toBe(0);

    // A push whose counters were read before the read committed (version 8), on the stream or from another tab.
    session.applyLive({ sse_type: "subscription", unread_follow_count: 1, version: 8 });
    session.applyLive({ sse_type: "unread", unread: { ...unread, unread_like_count: 4 }, version: 8 });
    // The page's loader, rendered before the read.
    session.hydrate(member, unread, 7);
    // The older snapshots still bring what they know newer than the tab: the like counter (held at version 5).
    expect(session.get().unread).toMatchObject({ unread_follow_count: 0, unread_like_count: 4 });

    // A newer snapshot is applied: someone followed after the read.
    session.applyLive({ sse_type: "subscription", unread_follow_count: 1, version: 9 });
    expect(session.get().unread.unread_follow_count).toBe(1);
    answers["/api/Users/get_unread"] = { status: 200, body: { ...unread, unread_follow_count: 0 }, headers: { "x-unread-version": "12" } };
    await session.refreshUnread();
    expect(session.get().unread).toMatchObject({ unread_follow_count: 0, unread_like_count: 2 });
  });
});
