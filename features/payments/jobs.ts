import { Cron } from "croner";
import type { FastifyBaseLogger } from "fastify";
import type { Database } from "../../server/db/client.ts";
import { expireOrders } from "./service.ts";
import { expireRedPackets } from "../red-packets/service.ts";

/**
 * Every minute, open top-up orders past their 15 minutes are asked of their provider (a payment
 * whose notify was lost is credited) and the rest become expired, and expired red packets
 * return what is left to their funders (croner, `protect`: a run
 * never overlaps the previous one; the update is safe to run in several processes at once).
 */
export function startPaymentJobs(db: Database, log: FastifyBaseLogger, now: () => Date = () => new Date()): () => void {
  const job = new Cron("0 * * * * *", { protect: true, unref: true, name: "expire-orders-and-red-packets" }, async () => {
    try {
      const expired = await expireOrders(db, now(), (message, details) => log.warn(details, message));
      if (expired > 0) log.info({ expired }, "top-up orders expired");
      const returned = await expireRedPackets(db, now());
      if (returned > 0) log.info({ returned }, "expired red packets returned to their funders");
    } catch (err) {
      log.error({ err }, "top-up order expiry failed");
    }
  });
  return () => job.stop();
}
