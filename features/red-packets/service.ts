import { randomInt } from "node:crypto";
import { and, eq, gt, lte } from "drizzle-orm";
import type { Database } from "../../server/db/client.ts";
import { redPacketClaims, redPackets, users } from "../../server/db/schema/index.ts";
import { AppError } from "../../common/app-error.ts";
import { onceByKey, requireIdempotencyKey } from "../../server/lib/idempotency.ts";
import { inTransaction, type ServiceOptions, type Transaction } from "../../server/lib/transactions.ts";
import { contentTag, userTag } from "../../server/lib/cache-tags.ts";
import { taggedMemory } from "../../server/lib/tagged-memory.ts";
import type { Viewer } from "../accounts/viewer.ts";
import { postLedgerTransaction } from "../ledger/service.ts";
import { emit } from "../events/bus.ts";
import { hold, returnRemainder } from "./returns.ts";
import { loadReadableWriting } from "../writings/service.ts";
import { writingPath } from "../writings/paths.ts";

export interface RedPacketInput {
  total: number;
  shares: number;
  split: "random" | "equal";
  expires_in_hours: number;
}

/**
 * The author funds a red packet on their writing: the total leaves their balance into the
 * packet's hold in the same transaction (refused by the database when it does not cover it).
 */
export async function fundRedPacket(
  options: ServiceOptions,
  viewer: Viewer,
  writingId: number,
  input: RedPacketInput,
  idempotencyKey: string | undefined,
  now: Date,
): Promise<{ id: number }> {
  const key = requireIdempotencyKey(idempotencyKey);
  const { row } = await loadReadableWriting(options.db, viewer, writingId);
  if (row.authorId !== viewer.id) throw new AppError("forbidden");
  if (input.total < input.shares) throw new AppError("validation_failed", { fields: { total: "validation:red_packet_total" } });
  return inTransaction(options, (tx) =>
    onceByKey(tx, { userId: viewer.id, key, operation: "red_packet", input: { writingId, ...input } }, async () => {
      const [packet] = await tx.db
        .insert(redPackets)
        .values({
          writingId,
          funderId: viewer.id,
          total: input.total,
          shares: input.shares,
          split: input.split,
          remainingAmount: input.total,
          remainingShares: input.shares,
          expiresAt: new Date(now.getTime() + input.expires_in_hours * 3_600_000),
          createdAt: now,
        })
        .returning({ id: redPackets.id });
      await postLedgerTransaction(tx, {
        idempotencyKey: `red_packet_fund:${packet!.id}`,
        kind: "red_packet_fund",
        data: { redPacketId: packet!.id, writingId, title: row.title, path: writingPath(row) },
        entries: [
          { account: { userId: viewer.id, currency: "sinecoin" }, amount: -input.total },
          { account: hold(packet!.id), amount: input.total },
        ],
      });
      await emit(tx, {
        verb: "red_packet.funded",
        actorId: viewer.id,
        subjectId: writingId,
        data: { redPacketId: packet!.id, total: input.total, shares: input.shares, authorId: row.authorId },
      });
      tx.invalidate(userTag(viewer.id), contentTag("writing", writingId));
      return { id: packet!.id };
    }),
  );
}

/** A share: the rest for the last one; equal splits evenly (the remainder to the last); random draws 1 to twice the average, leaving each later share at least one. */
export function drawShare(
  split: "random" | "equal",
  total: number,
  shares: number,
  remainingAmount: number,
  remainingShares: number,
): number {
  if (remainingShares <= 1) return remainingAmount;
  if (split === "equal") return Math.floor(total / shares);
  const most = remainingAmount - (remainingShares - 1);
  const fair = Math.max(1, Math.floor((2 * remainingAmount) / remainingShares) - 1);
  return Math.min(most, randomInt(1, fair + 1));
}

/**
 * A signed-in reader opens a red packet once: the packet row is locked, the claim row is unique
 * per reader (409 `already_claimed`), an emptied or expired packet is 409 `red_packet_empty`; the
 * share moves from the hold to the reader as spendable sinecoin (never profit: it is the funder's own money). 100 readers racing for 10 shares: exactly 10
 * claims, summing exactly to the total.
 */
export async function claimRedPacket(
  options: ServiceOptions,
  viewer: Viewer,
  id: number,
  idempotencyKey: string | undefined,
  now: Date,
): Promise<{ amount: number }> {
  const key = requireIdempotencyKey(idempotencyKey);
  return inTransaction(options, (tx) =>
    onceByKey(tx, { userId: viewer.id, key, operation: "red_packet_claim", input: { id } }, async () => {
      const [packet] = await tx.db.select().from(redPackets).where(eq(redPackets.id, id)).for("update");
      if (!packet || packet.writingId === null) throw new AppError("not_found");
      const writingId = packet.writingId;
      // Whoever may not read the writing may not see its packet either.
      const { row } = await loadReadableWriting(tx.db, viewer, writingId);
      if (packet.funderId === viewer.id) throw new AppError("forbidden");
      const [mine] = await tx.db
        .select({ amount: redPacketClaims.amount })
        .from(redPacketClaims)
        .where(and(eq(redPacketClaims.redPacketId, id), eq(redPacketClaims.userId, viewer.id)));
      if (mine) throw new AppError("already_claimed");
      if (packet.status !== "open" || packet.remainingShares === 0 || packet.expiresAt <= now) throw new AppError("red_packet_empty");
      const amount = drawShare(packet.split, packet.total, packet.shares, packet.remainingAmount, packet.remainingShares);
      await tx.db.insert(redPacketClaims).values({ redPacketId: id, userId: viewer.id, amount, createdAt: now });
      const remainingShares = packet.remainingShares - 1;
      await tx.db
        .update(redPackets)
        .set({ remainingShares, remainingAmount: packet.remainingAmount - amount, status: remainingShares === 0 ? "emptied" : "open" })
        .where(eq(redPackets.id, id));
      const funder = await funderName(tx, packet.funderId);
      await postLedgerTransaction(tx, {
        idempotencyKey: `red_packet_claim:${id}:${viewer.id}`,
        kind: "red_packet_claim",
        data: { redPacketId: id, writingId, title: row.title, path: writingPath(row), counterparty: funder },
        entries: [
          { account: hold(id), amount: -amount },
          { account: { userId: viewer.id, currency: "sinecoin" }, amount },
        ],
      });
      await emit(tx, {
        verb: "red_packet.claimed",
        actorId: viewer.id,
        subjectId: writingId,
        data: { redPacketId: id, amount, funderId: packet.funderId },
      });
      tx.invalidate(userTag(viewer.id), contentTag("writing", writingId));
      return { amount };
    }),
  );
}

async function funderName(tx: Transaction, userId: number): Promise<string> {
  const [row] = await tx.db.select({ nickname: users.nickname, username: users.username }).from(users).where(eq(users.id, userId));
  return row ? row.nickname || row.username : "";
}

/**
 * Expired open packets return what is left to their funders, each exactly once (the row is locked
 * and its status leaves `open` in the same transaction). Run every minute by the payments job.
 */
export async function expireRedPackets(db: Database, now: Date): Promise<number> {
  const due = await db
    .select({ id: redPackets.id })
    .from(redPackets)
    .where(and(eq(redPackets.status, "open"), lte(redPackets.expiresAt, now)));
  let returned = 0;
  for (const { id } of due) {
    await inTransaction({ db }, async (tx) => {
      const [packet] = await tx.db
        .select()
        .from(redPackets)
        .where(and(eq(redPackets.id, id), eq(redPackets.status, "open"), lte(redPackets.expiresAt, now)))
        .for("update");
      if (!packet) return;
      await returnRemainder(tx, packet, "expired");
      returned += 1;
    });
  }
  return returned;
}

interface OpenPacket {
  id: number;
  shares: number;
  remainingShares: number;
  funderId: number;
  expiresAt: Date;
}

/**
 * A writing's open red packets, remembered under the writing's content tag (giving, opening and
 * returning one invalidate it), so its reading page reads them without a query; one that expires
 * meanwhile is left out when read.
 */
const openPackets = taggedMemory<OpenPacket[]>("red-packets", { ttlMs: 60_000, maxEntries: 20_000 });

/** A writing's open red packets (for its page) and whether the viewer has opened each. */
export async function openRedPackets(db: Database, writingId: number, viewerId: number | null, now: Date) {
  const remembered = await openPackets.read(db, writingId, async () => ({
    value: await db
      .select({
        id: redPackets.id,
        shares: redPackets.shares,
        remainingShares: redPackets.remainingShares,
        funderId: redPackets.funderId,
        expiresAt: redPackets.expiresAt,
      })
      .from(redPackets)
      .where(and(eq(redPackets.writingId, writingId), eq(redPackets.status, "open"), gt(redPackets.expiresAt, now))),
    tags: [contentTag("writing", writingId)],
  }));
  const packets = remembered
    .filter((packet) => packet.expiresAt.getTime() > now.getTime())
    .map(({ expiresAt: _expiresAt, ...packet }) => packet);
  if (packets.length === 0 || viewerId === null) return packets.map((packet) => ({ ...packet, claimed: null as number | null }));
  const claims = await db
    .select({ id: redPacketClaims.redPacketId, amount: redPacketClaims.amount })
    .from(redPacketClaims)
    .where(eq(redPacketClaims.userId, viewerId));
  const mine = new Map(claims.map((claim) => [claim.id, claim.amount]));
  return packets.map((packet) => ({ ...packet, claimed: mine.get(packet.id) ?? null }));
}
