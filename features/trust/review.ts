import { and, desc, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import type { Executor } from "../../server/db/client.ts";
import { trustRings, users } from "../../server/db/schema/index.ts";
import { AppError } from "../../common/app-error.ts";
import { inTransaction, type ServiceOptions } from "../../server/lib/transactions.ts";
import { recordAudit, reasonField, requireReason } from "../admin/audit.ts";
import type { Staff } from "../admin/staff.ts";
import type { RingEvidence } from "./rings.ts";

/* `/admin/trust` and `GET /api/admin/trust/rings/`: the rings the job found, with their members and evidence (admins). */

export const ringStatuses = ["open", "dismissed"] as const;
export const ringListSchema = z.object({ status: z.enum(ringStatuses).optional() });
export const ringDismissSchema = z.strictObject({ reason: reasonField });

export interface RingMember {
  id: number;
  username: string;
  nickname: string;
  intelligenceScore: number;
  createdAt: Date;
}

export interface RingRow {
  id: number;
  status: (typeof ringStatuses)[number];
  members: RingMember[];
  evidence: RingEvidence;
  foundAt: Date;
  lastFoundAt: Date;
  decisionReason: string;
}

/** Rings by status (open by default), most recently found first, at most 100. */
export async function listRings(db: Executor, status: (typeof ringStatuses)[number] = "open"): Promise<RingRow[]> {
  const rings = await db
    .select()
    .from(trustRings)
    .where(eq(trustRings.status, status))
    .orderBy(desc(trustRings.lastFoundAt), desc(trustRings.id))
    .limit(100);
  const ids = [...new Set(rings.flatMap((ring) => ring.memberIds))];
  const people = ids.length
    ? await db
        .select({
          id: users.id,
          username: users.username,
          nickname: users.nickname,
          intelligenceScore: users.intelligenceScore,
          createdAt: users.createdAt,
        })
        .from(users)
        .where(inArray(users.id, ids))
    : [];
  const byId = new Map(people.map((person) => [person.id, person]));
  return rings.map((ring) => ({
    id: ring.id,
    status: ring.status,
    members: ring.memberIds.flatMap((id) => byId.get(id) ?? []),
    evidence: ring.evidence as RingEvidence,
    foundAt: ring.foundAt,
    lastFoundAt: ring.lastFoundAt,
    decisionReason: ring.decisionReason,
  }));
}

/** Dismisses an open ring (staff judged it harmless), with a reason, audited as `ring.dismiss`. 404 unless open. */
export async function dismissRing(
  options: ServiceOptions,
  staff: Staff,
  address: string,
  id: number,
  reason: string | undefined,
): Promise<{ dismissed: true }> {
  const why = requireReason(reason);
  return inTransaction(options, async (tx) => {
    const [ring] = await tx.db
      .update(trustRings)
      .set({ status: "dismissed", decidedBy: staff.id, decisionReason: why })
      .where(and(eq(trustRings.id, id), eq(trustRings.status, "open")))
      .returning({ memberIds: trustRings.memberIds });
    if (!ring) throw new AppError("not_found");
    await recordAudit(
      tx.db,
      { staff, address },
      {
        action: "ring.dismiss",
        target: `ring:${id}`,
        before: { status: "open", members: ring.memberIds },
        after: { status: "dismissed" },
        reason: why,
      },
    );
    return { dismissed: true };
  });
}
