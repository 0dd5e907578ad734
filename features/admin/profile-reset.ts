import { and, eq, inArray, ne } from "drizzle-orm";
import { z } from "zod";
import type { Executor } from "../../server/db/client.ts";
import { knownLoginIps, users } from "../../server/db/schema/index.ts";
import { AppError } from "../../common/app-error.ts";
import { inTransaction, type ServiceOptions } from "../../server/lib/transactions.ts";
import { adornmentsTag, userTag } from "../../server/lib/cache-tags.ts";
import { emit } from "../events/bus.ts";
import { forgetSessionsOf } from "../accounts/session-cache.server.ts";
import { reasonField, recordAudit, requireReason } from "./audit.ts";
import type { Staff } from "./staff.ts";

/*
 * From a user's admin page: resetting a nickname or avatar that breaks the rules (audited, the
 * user told by a system notice), and the accounts linked to this one by a shared sign-in address.
 */

export const profileFields = ["nickname", "avatar"] as const;
export type ProfileField = (typeof profileFields)[number];

export const profileResetSchema = z.strictObject({
  fields: z
    .array(z.enum(profileFields, { message: "validation:invalid_value" }))
    .min(1, "validation:invalid_value")
    .max(2),
  reason: reasonField,
});
export type ProfileReset = z.infer<typeof profileResetSchema>;

/** The nickname goes back to the username, the avatar to the default image. */
export async function resetProfile(
  options: ServiceOptions,
  staff: Staff,
  address: string,
  id: number,
  input: ProfileReset,
): Promise<{ nickname: string; avatar: string | null }> {
  const reason = requireReason(input.reason);
  const fields = [...new Set(input.fields)];
  return inTransaction(options, async (tx) => {
    const [before] = await tx.db
      .select({ username: users.username, nickname: users.nickname, avatar: users.avatar })
      .from(users)
      .where(eq(users.id, id))
      .for("update");
    if (!before) throw new AppError("not_found");
    const changes: Partial<typeof users.$inferInsert> = {};
    if (fields.includes("nickname")) changes.nickname = before.username;
    if (fields.includes("avatar")) Object.assign(changes, { avatar: null, avatarSmall: null });
    await tx.db.update(users).set(changes).where(eq(users.id, id));
    const after = { nickname: changes.nickname ?? before.nickname, avatar: fields.includes("avatar") ? null : before.avatar };
    await emit(tx, { actorId: staff.id, verb: "user.profile_reset", subjectId: id, data: { fields } });
    await recordAudit(
      tx.db,
      { staff, address },
      {
        action: "user.reset_profile",
        target: `user:${id}`,
        before: { nickname: before.nickname, avatar: before.avatar },
        after,
        reason,
      },
    );
    tx.invalidate(userTag(id), adornmentsTag(id));
    tx.afterCommit(() => forgetSessionsOf(id));
    return after;
  });
}

export interface LinkedAccount {
  id: number;
  username: string;
  nickname: string;
  /** The addresses both accounts signed in from. */
  addresses: string[];
}

/** Other accounts that signed in successfully from an address this one did (at most 50). */
export async function linkedAccounts(db: Executor, id: number): Promise<LinkedAccount[]> {
  const own = await db.select({ ip: knownLoginIps.ip }).from(knownLoginIps).where(eq(knownLoginIps.userId, id));
  const addresses = own.map((row) => row.ip).filter((ip) => ip !== "");
  if (addresses.length === 0) return [];
  const rows = await db
    .select({ id: users.id, username: users.username, nickname: users.nickname, ip: knownLoginIps.ip })
    .from(knownLoginIps)
    .innerJoin(users, eq(users.id, knownLoginIps.userId))
    .where(and(inArray(knownLoginIps.ip, addresses.slice(0, 100)), ne(knownLoginIps.userId, id)))
    .orderBy(users.id)
    .limit(200);
  const linked = new Map<number, LinkedAccount>();
  for (const row of rows) {
    const account = linked.get(row.id) ?? { id: row.id, username: row.username, nickname: row.nickname, addresses: [] };
    account.addresses.push(row.ip);
    linked.set(row.id, account);
  }
  return [...linked.values()].slice(0, 50);
}
