import type { SQL } from "drizzle-orm";
import type { Executor } from "../../server/db/client.ts";

/** The rows of a raw query, on either driver (PGlite and node-postgres both answer `{ rows }`). */
export async function selectRows<Row>(db: Executor, query: SQL): Promise<Row[]> {
  const result = await db.execute(query);
  return (result as unknown as { rows: Row[] }).rows;
}
