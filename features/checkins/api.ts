import type { FastifyInstance } from "fastify";
import { jsonRoute } from "../../server/lib/operation.ts";
import { checkInOperation, checkinStatusOperation } from "./operations.ts";

export async function checkinsApi(app: FastifyInstance): Promise<void> {
  const tags = ["check-in"];
  jsonRoute(app, "GET", "/api/Users/checkin/", checkinStatusOperation, { tags, summary: "Today's check-in state", cache: "no-store" });
  /** 200 `{ consecutive_days, total_days, gold, reward }`; the second call of a day 409 `already_checked_in`. */
  jsonRoute(app, "POST", "/api/Users/checkin/", checkInOperation, { tags, summary: "Check in for today", cache: "no-store" });
}
