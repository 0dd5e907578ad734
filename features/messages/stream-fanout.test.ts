import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AddressInfo } from "node:net";
import { PGlite } from "@electric-sql/pglite";
import { createTestApi, type TestApi } from "../../tests/support/api.ts";
import { createSignedInUser } from "../../tests/support/factories.ts";
import { openStream } from "../../tests/support/sse.ts";
import { invalidate } from "../../server/lib/invalidation.ts";
import { streamTag } from "./stream.ts";

/**
 * Issue 39: every change ran its queries once per open stream (200 streams, 200 times). A user's
 * streams now share one read per change. Counted on the embedded store, where every statement
 * goes through PGlite's `query` or `exec`.
 */
describe("the live stream's queries per change", () => {
  const statements: string[] = [];
  let counting = false;
  const proto = PGlite.prototype as unknown as Record<"query" | "exec", (...args: unknown[]) => unknown>;
  const originals = { query: proto.query, exec: proto.exec };
  let api: TestApi;
  let base: string;
  beforeAll(async () => {
    for (const name of ["query", "exec"] as const) {
      const original = originals[name];
      proto[name] = function (this: unknown, ...args: unknown[]) {
        if (counting) statements.push(String(args[0]).replace(/\s+/g, " ").slice(0, 160));
        return original.apply(this, args);
      };
    }
    api = await createTestApi("pglite");
    await api.app.listen({ port: 0, host: "127.0.0.1" });
    base = `http://127.0.0.1:${(api.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    proto.query = originals.query;
    proto.exec = originals.exec;
    await api.close();
  });

  /** The statements one wake of the user's streams runs, once every stream has its new counters. */
  async function statementsOfOneChange(streamCount: number): Promise<number> {
    const { user, visitor } = await createSignedInUser(api.app, api.database.db);
    const streams = Array.from({ length: streamCount }, () => openStream(base, visitor, user.id));
    for (const stream of streams) await stream.waitFor((message) => message.data.sse_type === "unread");
    const before = streams.map((stream) => stream.messages.length);
    statements.length = 0;
    counting = true;
    await invalidate([streamTag(user.id)]);
    for (const [index, stream] of streams.entries())
      await stream.waitFor((message) => message.data.sse_type === "unread" && stream.messages.indexOf(message) >= before[index]!);
    counting = false;
    for (const stream of streams) stream.close();
    return statements.length;
  }

  it("reads a change once for all of a user's streams", async () => {
    await statementsOfOneChange(1);
    const one = await statementsOfOneChange(1);
    expect(one).toBeGreaterThan(0);
    expect(await statementsOfOneChange(6)).toBe(one);
  });
});
