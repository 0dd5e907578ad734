import { index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./accounts.ts";

/**
 * Uploaded files served at /attach/{file_id}. The bytes live in the file store (DATA_DIR/uploads
 * or an S3-compatible bucket) under the file id; this row says what they are and who sent them.
 */
export const attachments = pgTable(
  "attachments",
  {
    /** Random and unguessable (24 base64url characters = 144 bits). */
    fileId: text("file_id").primaryKey(),
    ownerId: integer("owner_id").references(() => users.id, { onDelete: "set null" }),
    /** What it was uploaded for: `avatar`, `avatar_small`, `upload`, `circle_logo`, … */
    purpose: text("purpose").notNull(),
    /** Sniffed from the bytes after re-encoding, never taken from the client. */
    contentType: text("content_type").notNull(),
    size: integer("size").notNull(),
    width: integer("width"),
    height: integer("height"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("attachments_owner_idx").on(table.ownerId)],
);
