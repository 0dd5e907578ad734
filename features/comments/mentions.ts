import { and, asc, desc, ne, or, sql } from "drizzle-orm";
import type { Executor } from "../../server/db/client.ts";
import { follows, users } from "../../server/db/schema/index.ts";
import type { Viewer } from "../accounts/viewer.ts";
import type { MentionCandidates } from "./schema.ts";

/** How many people the `@` completion offers. */
export const mentionCandidateLimit = 8;

/** `text` as a LIKE prefix: its own `%`, `_` and `\` match themselves. */
const likePrefix = (text: string) => `${text.toLowerCase().replace(/[\\%_]/g, (character) => `\\${character}`)}%`;

/**
 * Whom an `@` being typed may mean: users whose username or nickname starts with `q`
 * (case-insensitive), the people the viewer follows first, then an exact username, then shorter
 * usernames; with nothing typed yet, the people the viewer follows. Never the viewer.
 */
export async function mentionCandidates(db: Executor, viewer: Viewer, q: string): Promise<MentionCandidates> {
  const followed = sql<boolean>`exists (select 1 from ${follows} f where f.follower_id = ${viewer.id} and f.followee_id = ${users.id})`;
  const typed = q.replace(/^@+/, "").trim();
  const matches =
    typed === ""
      ? followed
      : or(sql`lower(${users.username}) like ${likePrefix(typed)}`, sql`lower(${users.nickname}) like ${likePrefix(typed)}`);
  const rows = await db
    .select({ id: users.id, username: users.username, nickname: users.nickname, avatar: users.avatar })
    .from(users)
    .where(and(ne(users.id, viewer.id), matches))
    .orderBy(
      desc(followed),
      desc(sql`lower(${users.username}) = ${typed.toLowerCase()}`),
      asc(sql`length(${users.username})`),
      asc(users.username),
    )
    .limit(mentionCandidateLimit);
  return { items: rows };
}
