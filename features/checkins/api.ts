import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { AppError } from "../../common/app-error.ts";
import { authorize } from "../../common/policy.ts";
import { can } from "./policy.ts";
import { checkIn, getCheckinStatus } from "./service.ts";

export async function checkinsApi(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();

  /** Today's state of the check-in card. */
  api.get("/api/Users/checkin/", async (request, reply) => {
    const viewer = await request.viewer();
    authorize(viewer, can(viewer, "check_in"));
    const status = await getCheckinStatus(app.db, viewer!.id, app.now());
    reply.header("cache-control", "no-store");
    return {
      checked_in_today: status.checkedInToday,
      consecutive_days: status.consecutiveDays,
      total_days: status.totalDays,
      reward: status.reward,
    };
  });

  /** 200 `{ consecutive_days, total_days, gold, reward }`; the second call of a day 409 `already_checked_in`. */
  api.post("/api/Users/checkin/", { schema: { body: z.strictObject({}).nullish() } }, async (request, reply) => {
    const viewer = await request.viewer();
    authorize(viewer, can(viewer, "check_in"));
    const result = await checkIn({ db: app.db }, viewer!.id, app.now()).catch((error: unknown) => {
      if (error instanceof AppError) throw error;
      request.log.error({ err: error }, "check-in failed");
      throw new AppError("checkin_failed");
    });
    reply.header("cache-control", "no-store");
    return { consecutive_days: result.consecutiveDays, total_days: result.totalDays, gold: result.gold, reward: result.reward };
  });
}
