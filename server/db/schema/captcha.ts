import { index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Slider-puzzle challenges. Only the SHA-256 of the token handed to the browser is stored. A
 * challenge takes one answer: `answeredAt` is set by the first verify, `solvedAt` too when it
 * was right; signing in consumes (deletes) a solved challenge.
 */
export const captchaChallenges = pgTable(
  "captcha_challenges",
  {
    tokenHash: text("token_hash").primaryKey(),
    /** Where the piece fits, in image pixels from the left. */
    targetX: integer("target_x").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    answeredAt: timestamp("answered_at", { withTimezone: true }),
    solvedAt: timestamp("solved_at", { withTimezone: true }),
  },
  (table) => [index("captcha_challenges_expires_idx").on(table.expiresAt)],
);
