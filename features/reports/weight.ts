import { sql } from "drizzle-orm";
import type { Executor } from "../../server/db/client.ts";

/**
 * How much one report counts towards hiding its subject (`REPORT_HIDE_THRESHOLD` is a sum of
 * these, not a head count). Like Discourse's flag scores, a report weighs what its reporter's
 * standing earns: five accounts made a minute ago no longer hide anything together.
 */
export interface ReporterStanding {
  /** Days since the reporter signed up. */
  accountAgeDays: number;
  /** Their answers that askers accepted. */
  acceptedAnswers: number;
  /** Their past reports on decided cases that moderators upheld (hid or deleted the subject)… */
  upheldReports: number;
  /** …and those they turned down (restored or dismissed). */
  rejectedReports: number;
}

/** Past reports needed before their record counts. */
const decidedReportsToJudge = 3;

/**
 * The one formula (documented in docs/features/interactions.md, "Report weight"):
 * - age: 0.2 on the day of sign-up, rising evenly to 1 at 30 days;
 * - accepted answers: +0.1 each, at most +0.5;
 * - record: once 3 or more of their reports were decided, × (0.5 + upheld share), 0.5 to 1.5;
 * - the result kept between 0.1 and 2, to two decimals.
 */
export function reportWeight(standing: ReporterStanding): number {
  const age = Math.min(1, 0.2 + (0.8 * Math.max(0, standing.accountAgeDays)) / 30);
  const answers = 0.1 * Math.min(5, Math.max(0, standing.acceptedAnswers));
  const decided = standing.upheldReports + standing.rejectedReports;
  const record = decided >= decidedReportsToJudge ? 0.5 + standing.upheldReports / decided : 1;
  const weight = Math.min(2, Math.max(0.1, (age + answers) * record));
  return Math.round(weight * 100) / 100;
}

/** The reporter's standing now, in one round trip. */
export async function reporterStanding(db: Executor, userId: number): Promise<ReporterStanding> {
  const result = await db.execute(sql`
    select
      extract(epoch from (now() - u.created_at)) / 86400 as age_days,
      (select count(*) from questions q join answers a on a.id = q.accepted_answer_id where a.author_id = u.id) as accepted,
      (select count(*) from reports r join moderation_cases c on c.id = r.case_id
        where r.reporter_id = u.id and c.status = 'decided' and c.decision in ('hide', 'delete')) as upheld,
      (select count(*) from reports r join moderation_cases c on c.id = r.case_id
        where r.reporter_id = u.id and c.status = 'decided' and c.decision in ('restore', 'dismiss')) as rejected
    from users u where u.id = ${userId}`);
  const row = (result as unknown as { rows: Record<string, string | number | null>[] }).rows[0];
  return {
    accountAgeDays: Number(row?.age_days ?? 0),
    acceptedAnswers: Number(row?.accepted ?? 0),
    upheldReports: Number(row?.upheld ?? 0),
    rejectedReports: Number(row?.rejected ?? 0),
  };
}
