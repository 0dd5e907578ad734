import { asc, count, eq } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "../../server/db/client.ts";
import { missionGrants, missions } from "../../server/db/schema/index.ts";
import { AppError } from "../../common/app-error.ts";
import { inTransaction, type ServiceOptions } from "../../server/lib/transactions.ts";
import { recordAudit, reasonField, requireReason } from "../admin/audit.ts";
import type { Staff } from "../admin/staff.ts";
import { missionMetrics } from "./metrics.ts";
import type { MissionScope } from "./periods.ts";
import type { MissionRow } from "./service.ts";

/*
 * `/admin/missions`: missions are data, and admins write it. A mission's key and scope are fixed
 * when it is made (its periods and its grants hang on them; the scope decides the currency: gold
 * for daily and weekly, sinecoin for creator missions); its terms (titles, counting rule, target,
 * reward, order) may change, and pausing takes it off every list and claim at once. Every write is
 * audited with its reason (`mission.create`, `mission.update`, `mission.pause`, `mission.resume`).
 * A change applies from the moment it is made: the current period is measured against the new
 * target, and a claim pays the reward the mission has when it is claimed.
 */

const title = z.string().trim().min(1, "validation:mission_title_length").max(100, "validation:mission_title_length");
const target = z.coerce
  .number({ error: "validation:mission_target_range" })
  .int("validation:mission_target_range")
  .min(1, "validation:mission_target_range")
  .max(1_000_000, "validation:mission_target_range");
const rewardAmount = z.coerce
  .number({ error: "validation:mission_reward_range" })
  .int("validation:mission_reward_range")
  .min(1, "validation:mission_reward_range")
  .max(100_000, "validation:mission_reward_range");
const position = z.coerce
  .number({ error: "validation:invalid_value" })
  .int("validation:invalid_value")
  .min(0, "validation:invalid_value")
  .max(10_000, "validation:invalid_value");
const metric = z.enum(missionMetrics, { error: "validation:invalid_value" });
const scopes = ["daily", "weekly", "creator"] as const satisfies readonly MissionScope[];

export const missionDraftSchema = z.strictObject({
  key: z
    .string()
    .trim()
    .regex(/^[a-z][a-z0-9_]{2,47}$/, "validation:mission_key_format"),
  scope: z.enum(scopes, { error: "validation:invalid_value" }),
  metric,
  target,
  reward_amount: rewardAmount,
  title_zh: title,
  title_en: title,
  position: position.default(0),
  reason: reasonField,
});
export type MissionDraft = z.infer<typeof missionDraftSchema>;

export const missionChangeSchema = z.strictObject({
  metric: metric.optional(),
  target: target.optional(),
  reward_amount: rewardAmount.optional(),
  title_zh: title.optional(),
  title_en: title.optional(),
  position: position.optional(),
  /** False pauses the mission (off every list and claim), true resumes it. */
  active: z.boolean({ error: "validation:invalid_value" }).optional(),
  reason: reasonField,
});
export type MissionChange = z.infer<typeof missionChangeSchema>;

export const currencyOfScope = (scope: MissionScope) => (scope === "creator" ? "sinecoin" : "gold");

/** A mission with how many rewards were claimed (all periods), for the admin list. */
export interface AdminMissionRow {
  mission: MissionRow;
  claimed: number;
}

/** Every mission, paused ones too, by scope and position, with its claimed count. */
export async function listAdminMissions(db: Database): Promise<AdminMissionRow[]> {
  const rows = await db.select().from(missions).orderBy(asc(missions.scope), asc(missions.position), asc(missions.id));
  const claimed = await db
    .select({ missionId: missionGrants.missionId, n: count() })
    .from(missionGrants)
    .where(eq(missionGrants.status, "claimed"))
    .groupBy(missionGrants.missionId);
  const byMission = new Map(claimed.map((row) => [row.missionId, row.n]));
  return rows.map((mission) => ({ mission, claimed: byMission.get(mission.id) ?? 0 }));
}

/** The terms written to the audit log before and after a change. */
function terms(row: MissionRow) {
  return {
    key: row.key,
    scope: row.scope,
    metric: row.metric,
    target: row.target,
    reward: { currency: row.rewardCurrency, amount: row.rewardAmount },
    title_zh: row.titleZh,
    title_en: row.titleEn,
    position: row.position,
    active: row.active,
  };
}

/** Makes a mission (active at once); a key in use is 409 `mission_key_taken`. */
export async function createMission(options: ServiceOptions, staff: Staff, address: string, draft: MissionDraft): Promise<{ id: number }> {
  const why = requireReason(draft.reason);
  return inTransaction(options, async (tx) => {
    const [row] = await tx.db
      .insert(missions)
      .values({
        key: draft.key,
        scope: draft.scope,
        metric: draft.metric,
        target: draft.target,
        rewardCurrency: currencyOfScope(draft.scope),
        rewardAmount: draft.reward_amount,
        titleZh: draft.title_zh,
        titleEn: draft.title_en,
        position: draft.position,
      })
      .onConflictDoNothing({ target: missions.key })
      .returning();
    if (!row) throw new AppError("mission_key_taken", { params: { key: draft.key } });
    await recordAudit(tx.db, { staff, address }, { action: "mission.create", target: `mission:${row.id}`, after: terms(row), reason: why });
    return { id: row.id };
  });
}

/**
 * Changes a mission's terms or pauses / resumes it, under a row lock; audited as `mission.pause`
 * or `mission.resume` when only `active` changed, else `mission.update`. Nothing changed still
 * answers the mission and records nothing.
 */
export async function changeMission(
  options: ServiceOptions,
  staff: Staff,
  address: string,
  id: number,
  change: MissionChange,
): Promise<{ id: number; active: boolean }> {
  const why = requireReason(change.reason);
  return inTransaction(options, async (tx) => {
    const [before] = await tx.db.select().from(missions).where(eq(missions.id, id)).for("update");
    if (!before) throw new AppError("not_found");
    const values: Partial<typeof missions.$inferInsert> = {};
    if (change.metric !== undefined && change.metric !== before.metric) values.metric = change.metric;
    if (change.target !== undefined && change.target !== before.target) values.target = change.target;
    if (change.reward_amount !== undefined && change.reward_amount !== before.rewardAmount) values.rewardAmount = change.reward_amount;
    if (change.title_zh !== undefined && change.title_zh !== before.titleZh) values.titleZh = change.title_zh;
    if (change.title_en !== undefined && change.title_en !== before.titleEn) values.titleEn = change.title_en;
    if (change.position !== undefined && change.position !== before.position) values.position = change.position;
    if (change.active !== undefined && change.active !== before.active) values.active = change.active;
    const changed = Object.keys(values);
    if (changed.length === 0) return { id, active: before.active };
    const [after] = await tx.db.update(missions).set(values).where(eq(missions.id, id)).returning();
    const action =
      changed.length === 1 && values.active !== undefined ? (values.active ? "mission.resume" : "mission.pause") : "mission.update";
    await recordAudit(
      tx.db,
      { staff, address },
      { action, target: `mission:${id}`, before: terms(before), after: terms(after!), reason: why },
    );
    return { id, active: after!.active };
  });
}
