import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../../tests/support/database.ts";
import { createUser } from "../../tests/support/factories.ts";
import { events } from "../../server/db/schema/index.ts";
import { getUnreadCounts } from "../messages/service.ts";
import { inTransaction } from "../../server/lib/transactions.ts";
import { emit, handlersOf, onEvent } from "./bus.ts";
import { eventCatalogue, eventVerbs, type EventVerb } from "./catalogue.ts";

describe("the event catalogue", () => {
  it("names a registry subject kind and a data schema for every verb, in the past tense of a domain verb", () => {
    for (const verb of eventVerbs) {
      expect(verb).toMatch(/^[a-z]+(?:_[a-z]+)*\.[a-z_]+$/);
      expect(eventCatalogue[verb].subject).toMatch(/^(writing|book|chapter|entry|comment|user|circle|question|answer|any)$/);
    }
  });

  it("has the message centre's notifications subscribed to follows and comments", () => {
    expect(handlersOf("user.followed")).toContain("messages.notify_follow");
    expect(handlersOf("comment.created")).toContain("messages.notify_comment");
  });
});

// A handler of the test's own, registered once for the file: it fails on one value.
const verb: EventVerb = "user.avatar_changed";
let afterCommitRan = false;
onEvent(verb, {
  name: "test.failing",
  async inTransaction(_tx, event) {
    if (event.data.fileId === "boom") throw new Error("handler failed");
  },
  afterCommit: () => (afterCommitRan = true),
});

describe.each(databaseKinds)("emitting events on %s", (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(() => database.dispose());
  const db = () => database.db;
  const unreadFollows = async (userId: number) => (await getUnreadCounts(db(), userId)).unread_follow_count;

  it("writes the row with its integer subject and recipients (never the actor), and runs in-transaction handlers with it", async () => {
    const [actor, star] = [await createUser(db()), await createUser(db())];
    await inTransaction({ db: db() }, (tx) =>
      emit(tx, { verb: "user.followed", actorId: actor.id, subjectId: star.id, data: {}, recipientIds: [star.id, actor.id, star.id] }),
    );
    const [row] = await db()
      .select()
      .from(events)
      .where(and(eq(events.verb, "user.followed"), eq(events.subjectId, star.id)));
    expect(row).toMatchObject({ actorId: actor.id, subjectType: "user", subjectId: star.id, recipientIds: [star.id] });
    expect(await unreadFollows(star.id)).toBe(1);
    expect(await unreadFollows(actor.id)).toBe(0);
  });

  it("refuses data of the wrong shape, and a failing handler rolls the whole change back", async () => {
    const user = await createUser(db());
    await expect(
      inTransaction({ db: db() }, (tx) =>
        emit(tx, { verb: "user.checked_in", actorId: user.id, subjectId: user.id, data: { day: 1 } as never }),
      ),
    ).rejects.toThrow();
    afterCommitRan = false;
    await expect(
      inTransaction({ db: db() }, (tx) => emit(tx, { verb, actorId: user.id, subjectId: user.id, data: { fileId: "boom" } })),
    ).rejects.toThrow("handler failed");
    expect(afterCommitRan).toBe(false);
    expect(
      await db()
        .select()
        .from(events)
        .where(and(eq(events.verb, verb), eq(events.actorId, user.id))),
    ).toEqual([]);
    await inTransaction({ db: db() }, (tx) => emit(tx, { verb, actorId: user.id, subjectId: user.id, data: { fileId: "fine" } }));
    expect(afterCommitRan).toBe(true);
  });
});
