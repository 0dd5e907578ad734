import { index, integer, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./accounts.ts";
import { deliveryChannels, verificationPurposes } from "../../../features/verification/constants.ts";

/**
 * Verification codes sent by mail or SMS. Only an HMAC of the code is stored. Rows stay after
 * use (until the sweep) because the hourly send limits count them. Only the newest open code of a
 * purpose and recipient is valid.
 */
export const verificationCodes = pgTable(
  "verification_codes",
  {
    id: serial("id").primaryKey(),
    purpose: text("purpose", { enum: verificationPurposes }).notNull(),
    /** A lower-cased email address, an E.164 phone number, or `name:<typed>` for an unknown account. */
    recipient: text("recipient").notNull(),
    /** The account it signs in or resets; null when nobody has that address (yet). */
    userId: integer("user_id").references(() => users.id, { onDelete: "cascade" }),
    /** How it went out; null when nothing was sent (no such account). */
    channel: text("channel", { enum: deliveryChannels }),
    codeHash: text("code_hash").notNull(),
    attempts: integer("attempts").notNull().default(0),
    ip: text("ip").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    /** Used up: accepted once, replaced by a newer code, or out of tries. */
    spentAt: timestamp("spent_at", { withTimezone: true }),
    /** The mail or SMS could not be sent: the code never reached anyone. */
    failedAt: timestamp("failed_at", { withTimezone: true }),
  },
  (table) => [
    index("verification_codes_recipient_idx").on(table.recipient, table.createdAt),
    index("verification_codes_ip_idx").on(table.ip, table.createdAt),
    index("verification_codes_user_idx").on(table.userId),
    index("verification_codes_expires_idx").on(table.expiresAt),
  ],
);

/** Short-lived, single-use permission to set a new password, given for a verified reset code. */
export const passwordResetTokens = pgTable(
  "password_reset_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (table) => [index("password_reset_tokens_user_idx").on(table.userId), index("password_reset_tokens_expires_idx").on(table.expiresAt)],
);
