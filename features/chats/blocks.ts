import { and, eq, or, sql } from "drizzle-orm";
import type { Executor } from "../../server/db/client.ts";
import { userBlocks, users } from "../../server/db/schema/index.ts";
import { inTransaction, type ServiceOptions } from "../../server/lib/transactions.ts";
import { chatBlockTag, chatTag } from "../../server/lib/cache-tags.ts";
import { AppError } from "../../common/app-error.ts";
import type { Viewer } from "../accounts/viewer.ts";
import { emit } from "../events/bus.ts";

/** Blocking: a blocked user can no longer send the blocker private messages (and is told so). */

/** Who blocked whom between two users: "them" (the other blocked me), "me" (I blocked them), or null. */
export async function blockBetween(db: Executor, me: number, other: number): Promise<"them" | "me" | null> {
  const rows = await db
    .select({ blockerId: userBlocks.blockerId })
    .from(userBlocks)
    .where(
      or(
        and(eq(userBlocks.blockerId, other), eq(userBlocks.blockedId, me)),
        and(eq(userBlocks.blockerId, me), eq(userBlocks.blockedId, other)),
      ),
    );
  if (rows.some((row) => row.blockerId === other)) return "them";
  return rows.length > 0 ? "me" : null;
}

/** Whether `blockerId` blocked `blockedId`. */
export async function hasBlocked(db: Executor, blockerId: number, blockedId: number): Promise<boolean> {
  const [row] = await db
    .select({ blockerId: userBlocks.blockerId })
    .from(userBlocks)
    .where(and(eq(userBlocks.blockerId, blockerId), eq(userBlocks.blockedId, blockedId)));
  return row !== undefined;
}

async function findTarget(db: Executor, viewer: Viewer, username: string): Promise<number> {
  const [target] = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.username}) = ${username.toLowerCase()}`)
    .limit(1);
  if (!target) throw new AppError("not_found");
  if (target.id === viewer.id) throw new AppError("cannot_block_self");
  return target.id;
}

/** Blocks or unblocks `username` (repeating either changes nothing); answers whether they are blocked now. */
export async function setBlocked(options: ServiceOptions, viewer: Viewer, username: string, blocked: boolean): Promise<boolean> {
  return inTransaction(options, async (tx) => {
    const targetId = await findTarget(tx.db, viewer, username);
    const changed = blocked
      ? await tx.db.insert(userBlocks).values({ blockerId: viewer.id, blockedId: targetId }).onConflictDoNothing().returning()
      : await tx.db
          .delete(userBlocks)
          .where(and(eq(userBlocks.blockerId, viewer.id), eq(userBlocks.blockedId, targetId)))
          .returning();
    if (changed.length > 0) {
      await emit(tx, { verb: blocked ? "user.blocked" : "user.unblocked", actorId: viewer.id, subjectId: targetId, data: {} });
      tx.invalidate(chatTag(viewer.id), chatBlockTag(viewer.id, targetId));
    }
    return blocked;
  });
}

/** What the blocked user's open thread is told when `blockerId` blocks or unblocks them: the blocker's username and whether the block stands. */
export async function blockNotice(db: Executor, blockerId: number, blockedId: number): Promise<{ peer: string; blocked: boolean } | null> {
  const [blocker] = await db.select({ username: users.username }).from(users).where(eq(users.id, blockerId)).limit(1);
  return blocker ? { peer: blocker.username, blocked: await hasBlocked(db, blockerId, blockedId) } : null;
}
