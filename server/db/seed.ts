import type { DatabaseHandle } from "./client.ts";
import { seedCircleTree, seedDemoMemberships } from "../../features/circles/seed.ts";
import { seedDemoUsers } from "../../features/accounts/seed.ts";
import { seedDemoWritings } from "../../features/writings/seed.ts";
import { seedDemoBook } from "../../features/books/seed.ts";
import { seedDemoEntries } from "../../features/encyclopedia/seed.ts";
import { seedDemoQuestions } from "../../features/questions/seed.ts";
import { seedDemoLinks } from "../../features/links/seed.ts";
import { ensureSearchIndex } from "../../features/search/indexer.ts";

/** Idempotent start-up seeding. Demo data only on the embedded store, never on a server database. */
export async function seed(handle: DatabaseHandle): Promise<void> {
  await seedCircleTree(handle.db);
  if (handle.kind === "embedded") {
    await seedDemoUsers(handle.db);
    await seedDemoMemberships(handle.db);
    // Before the writings: the demo articles relate to demo entries.
    await seedDemoEntries(handle.db);
    await seedDemoWritings(handle.db);
    await seedDemoBook(handle.db);
    await seedDemoQuestions(handle.db);
    await seedDemoLinks(handle.db);
  }
  // Seeding writes rows directly (no events): the index is built from them when it is empty.
  await ensureSearchIndex(handle.db);
}
