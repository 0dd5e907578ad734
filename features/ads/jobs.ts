import { shanghaiDay } from "../../common/locale.ts";
import { defineJob } from "../jobs/registry.ts";
import { addDays } from "./campaigns.ts";
import { billAds } from "./billing.ts";
import { pruneAdMarks } from "./counting.ts";
import { adSettings } from "./settings.ts";

/**
 * Just after midnight in Asia/Shanghai (16:10 UTC), yesterday's ad spend is billed: one ledger
 * transaction per campaign and day, found again by a repeated or retried run (`billAds`).
 * `asOf` (an ISO time) bills as of another moment: tests use it to bill "the next day".
 */
export const billAdsJob = defineJob<{ asOf?: string }>({
  name: "bill-ads",
  schedule: "10 16 * * *",
  retry: { limit: 5, delaySeconds: 60, backoff: true },
  async run({ db, log, now }, data) {
    const asOf = data.asOf ? new Date(data.asOf) : now;
    if (Number.isNaN(asOf.getTime())) throw new Error(`bill-ads: bad asOf ${data.asOf}`);
    const billed = await billAds(db, asOf);
    if (billed > 0) log.info({ billed }, "ad campaigns billed");
    await pruneAdMarks(db, addDays(shanghaiDay(asOf), -adSettings.keepMarksDays));
  },
});
