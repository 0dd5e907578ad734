import { and, eq } from "drizzle-orm";
import { redPackets } from "../../server/db/schema/index.ts";
import type { Transaction } from "../../server/lib/transactions.ts";
import { contentTag, userTag } from "../../server/lib/cache-tags.ts";
import { emit } from "../events/bus.ts";
import { postLedgerTransaction } from "../ledger/service.ts";

/** Where a packet's money waits: its own system account, whose balance is the packet's remaining amount. */
export const hold = (id: number) => ({ system: `red_packet:${id}`, currency: "sinecoin" as const });

type PacketRow = typeof redPackets.$inferSelect;

/**
 * Closes a locked open packet and pays what is left back to its funder (ledger and event in the
 * caller's transaction): when it expires, and when its writing is deleted.
 */
export async function returnRemainder(tx: Transaction, packet: PacketRow, reason: "expired" | "writing_deleted"): Promise<void> {
  await tx.db
    .update(redPackets)
    .set({ status: reason === "expired" ? "expired" : "withdrawn", remainingAmount: 0, remainingShares: 0 })
    .where(eq(redPackets.id, packet.id));
  if (packet.remainingAmount > 0) {
    await postLedgerTransaction(tx, {
      idempotencyKey: `red_packet_return:${packet.id}`,
      kind: "red_packet_return",
      data: { redPacketId: packet.id, writingId: packet.writingId, reason },
      entries: [
        { account: hold(packet.id), amount: -packet.remainingAmount },
        { account: { userId: packet.funderId, currency: "sinecoin" }, amount: packet.remainingAmount },
      ],
    });
  }
  await emit(tx, {
    verb: "red_packet.refunded",
    actorId: null,
    subjectId: packet.funderId,
    data: { redPacketId: packet.id, writingId: packet.writingId, amount: packet.remainingAmount, reason },
  });
  tx.invalidate(userTag(packet.funderId));
  if (packet.writingId !== null) tx.invalidate(contentTag("writing", packet.writingId));
}

/**
 * Before a writing is deleted (by its author or a moderator, in the deleting transaction): its
 * open packets return what is left to their funders; the packets stay, detached from the writing.
 */
export async function withdrawRedPacketsOf(tx: Transaction, writingId: number): Promise<void> {
  const packets = await tx.db
    .select()
    .from(redPackets)
    .where(and(eq(redPackets.writingId, writingId), eq(redPackets.status, "open")))
    .orderBy(redPackets.id)
    .for("update");
  for (const packet of packets) await returnRemainder(tx, packet, "writing_deleted");
}
