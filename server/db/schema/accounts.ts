import { sql } from "drizzle-orm";
import { boolean, check, date, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

import { genders, siteRoles, userTypes } from "../../../features/accounts/constants.ts";

export const users = pgTable(
  "users",
  {
    id: serial("id").primaryKey(),
    username: text("username").notNull(),
    nickname: text("nickname").notNull(),
    /** Null for an account created by SMS sign-in (it has a phone instead). */
    email: text("email"),
    /** E.164 (`+8613800138000`), bound by SMS sign-in; unique when present. */
    phone: text("phone"),
    /** Null for an account created by SMS sign-in: it cannot sign in with a password until it sets one. */
    passwordHash: text("password_hash"),
    gender: text("gender", { enum: genders }).notNull(),
    birthday: date("birthday", { mode: "string" }),
    country: text("country").notNull(),
    userType: text("user_type", { enum: userTypes }).notNull().default("Registered users"),
    /** URL of the profile-size avatar (256 px), or null for the default image. */
    avatar: text("avatar"),
    /** URL of the header-size avatar (64 px). */
    avatarSmall: text("avatar_small"),
    /** The one-line slogan shown under the name. */
    signature: text("signature").notNull().default(""),
    selfDescription: text("self_description").notNull().default(""),
    intelligenceScore: integer("intelligence_score").notNull().default(0),
    /** Cached balances: updated in the same transaction as every ledger entry on the user's accounts (features/ledger). */
    gold: integer("gold").notNull().default(0),
    sinecoin: integer("sinecoin").notNull().default(0),
    school: text("school").notNull().default(""),
    profession: text("profession").notNull().default(""),
    hogwartsSchool: text("hogwarts_school").notNull().default(""),
    sinecoinTotalProfit: integer("sinecoin_total_profit").notNull().default(0),
    sinecoinTotalCashout: integer("sinecoin_total_cashout").notNull().default(0),
    cashoutableSinecoinProfit: integer("cashoutable_sinecoin_profit").notNull().default(0),
    /** Site-wide moderation role (`npm run admin -- set-site-role <username> moderator`): moderators see and decide every report. */
    siteRole: text("site_role", { enum: siteRoles }).notNull().default("none"),
    /** Set while moderation hides the profile. */
    hiddenAt: timestamp("hidden_at", { withTimezone: true }),
    /** While in the future the account can read but not write (403 `account_suspended`); set by staff (features/admin). */
    suspendedUntil: timestamp("suspended_until", { withTimezone: true }),
    /** Why staff suspended the account, shown to its owner while suspended. */
    suspensionReason: text("suspension_reason").notNull().default(""),
    /** The address the account was registered from (null for accounts older than trust & safety): a ring's evidence (features/trust). */
    signupAddress: text("signup_address"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("users_username_lower_idx").on(sql`lower(${table.username})`),
    uniqueIndex("users_email_lower_idx").on(sql`lower(${table.email})`),
    uniqueIndex("users_phone_idx").on(table.phone),
    check("users_gender_check", sql`${table.gender} in ('male', 'female', 'secret')`),
    check("users_site_role_check", sql`${table.siteRole} in ('none', 'moderator', 'admin')`),
    // No balance ever goes below zero: the row update of a ledger posting fails instead (features/ledger).
    check("users_balances_nonnegative", sql`${table.gold} >= 0 and ${table.sinecoin} >= 0 and ${table.cashoutableSinecoinProfit} >= 0`),
  ],
);

/** Server-side sessions: only the SHA-256 of the cookie token is stored. */
export const sessions = pgTable(
  "sessions",
  {
    tokenHash: text("token_hash").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    persistent: boolean("persistent").notNull(),
    ip: text("ip").notNull().default(""),
    userAgent: text("user_agent").notNull().default(""),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (table) => [index("sessions_user_idx").on(table.userId), index("sessions_expires_idx").on(table.expiresAt)],
);

/** Failed sign-in attempts, counted per key ("ip:…", "account:…", "pair:…") in a sliding window. */
export const loginFailures = pgTable("login_failures", {
  key: text("key").primaryKey(),
  failures: integer("failures").notNull().default(0),
  windowStartedAt: timestamp("window_started_at", { withTimezone: true }).notNull().defaultNow(),
  lastFailureAt: timestamp("last_failure_at", { withTimezone: true }).notNull().defaultNow(),
});

/** IPs from which an account has signed in successfully: they keep access when the account is under attack. */
export const knownLoginIps = pgTable(
  "known_login_ips",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    ip: text("ip").notNull(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex("known_login_ips_user_ip_idx").on(table.userId, table.ip)],
);

/**
 * Accounts created from an address in its current one-hour window: the sign-up limit, one count
 * shared by the API and the page form.
 */
export const signupCounts = pgTable("signup_counts", {
  ip: text("ip").primaryKey(),
  signups: integer("signups").notNull().default(0),
  windowStartedAt: timestamp("window_started_at", { withTimezone: true }).notNull().defaultNow(),
});
