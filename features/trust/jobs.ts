import { defineJob } from "../jobs/registry.ts";
import { findRings, saveRings } from "./rings.ts";
import { computeIntelligenceScores } from "./score.ts";

/*
 * Trust & safety's nightly work (docs/features/trust.md). Cron times are UTC: 18:40 and 18:55 UTC
 * are 02:40 and 02:55 in Asia/Shanghai. The rings go first, so the standing score leaves out what
 * ring members gave each other.
 */

export const findRingsJob = defineJob({
  name: "find-rings",
  schedule: "40 18 * * *",
  retry: { limit: 2, delaySeconds: 60, backoff: true },
  async run({ db, now, report }) {
    const rings = await findRings(db, now);
    const added = await db.transaction((tx) => saveRings(tx, rings, now));
    report(`${rings.length} rings found, ${added} new`);
  },
});

export const intelligenceScoresJob = defineJob({
  name: "intelligence-scores",
  schedule: "55 18 * * *",
  retry: { limit: 2, delaySeconds: 60, backoff: true },
  async run({ db, report }) {
    const changed = await computeIntelligenceScores(db);
    report(`${changed} scores changed`);
  },
});
