import { sql } from "drizzle-orm";
import type { Database } from "../../server/db/client.ts";
import { unreadCounters, users } from "../../server/db/schema/index.ts";
import type { UserType } from "./constants.ts";
import { hashPassword } from "./passwords.server.ts";

/** Demo accounts, created on the embedded store only (listed in the README). */
export const demoUsers: { username: string; email: string; password: string; userType: UserType; nickname: string }[] = [
  { username: "demo", email: "demo@example.com", password: "demo12345", userType: "Registered users", nickname: "演示用户" },
  { username: "creator", email: "creator@example.com", password: "creator123", userType: "VIP users", nickname: "Creator" },
];

export async function seedDemoUsers(db: Database): Promise<void> {
  for (const demo of demoUsers) {
    const [existing] = await db
      .select({ id: users.id })
      .from(users)
      .where(sql`lower(${users.username}) = ${demo.username}`);
    if (existing) continue;
    const passwordHash = await hashPassword(demo.password);
    await db.transaction(async (tx) => {
      const [user] = await tx
        .insert(users)
        .values({
          username: demo.username,
          nickname: demo.nickname,
          email: demo.email,
          passwordHash,
          gender: "secret",
          birthday: "2000-01-01",
          country: "CN",
          userType: demo.userType,
        })
        .onConflictDoNothing()
        .returning({ id: users.id });
      if (user) await tx.insert(unreadCounters).values({ userId: user.id });
    });
  }
}
