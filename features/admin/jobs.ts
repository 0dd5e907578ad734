import { defineJob } from "../jobs/registry.ts";
import { publishDueAnnouncements } from "../messages/announcements.ts";

/** Every minute, scheduled announcements whose time has come go out (each once: `publishDueAnnouncements`). */
export const publishAnnouncementsJob = defineJob({
  name: "publish-announcements",
  schedule: "* * * * *",
  retry: { limit: 3, delaySeconds: 30, backoff: true },
  async run({ db, log, now }) {
    const published = await publishDueAnnouncements({ db }, now);
    if (published > 0) log.info({ published }, "scheduled announcements published");
  },
});
