import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../../tests/support/database.ts";
import { addMember, createCircle, createUser } from "../../tests/support/factories.ts";
import { circles } from "../../server/db/schema/index.ts";
import { inTransaction } from "../../server/lib/transactions.ts";
import { presentViewer } from "../accounts/viewer.ts";
import { updateCircle } from "./manage.ts";
import { circleRowById, circleRows } from "./tree.server.ts";

describe.each(databaseKinds)("the circle tree in memory on %s", (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(() => database.dispose());

  it("answers repeated reads without the database, and a committed change is seen at once", async () => {
    const founder = await createUser(database.db);
    const circle = await createCircle(database.db, { nameEn: "Before" });
    await addMember(database.db, circle.id, founder.id, "founder");
    const first = await circleRows(database.db);
    expect(await circleRows(database.db)).toBe(first);
    expect((await circleRowById(database.db, circle.id))?.nameEn).toBe("Before");
    // Rows handed out are shared: nobody may change them in place.
    expect(Object.isFrozen(first[0])).toBe(true);

    await updateCircle({ db: database.db }, presentViewer(founder), circle.id, { name_en: "After" });
    expect((await circleRowById(database.db, circle.id))?.nameEn).toBe("After");
    expect(await circleRows(database.db)).not.toBe(first);
  });

  it("reads inside a transaction from the database, so a use case sees its own uncommitted change", async () => {
    const circle = await createCircle(database.db, { nameEn: "Outside" });
    await circleRows(database.db);
    await inTransaction({ db: database.db }, async (tx) => {
      await tx.db.update(circles).set({ nameEn: "Inside" }).where(eq(circles.id, circle.id));
      expect((await circleRowById(tx.db, circle.id))?.nameEn).toBe("Inside");
      tx.invalidate("circles");
    });
    expect((await circleRowById(database.db, circle.id))?.nameEn).toBe("Inside");
  });

  it("knows a circle created by the factories (they invalidate as services do) and forgets a missing one", async () => {
    await circleRows(database.db);
    const circle = await createCircle(database.db);
    expect((await circleRowById(database.db, circle.id))?.id).toBe(circle.id);
    expect(await circleRowById(database.db, 999_999)).toBeNull();
  });
});
