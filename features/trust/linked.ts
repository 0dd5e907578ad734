import { sql, type SQL } from "drizzle-orm";

/*
 * What links two accounts: a shared device cookie, the same sign-up address, or the same payout
 * account. The verdicts (features/trust/verdicts.ts), the ring job and the standing score all ask
 * the same question.
 */

/** A boolean SQL expression: the accounts `a` and `b` (id expressions) are linked. */
export function linkedSql(a: SQL, b: SQL): SQL {
  return sql`(exists (select 1 from device_sightings da join device_sightings db on db.device_hash = da.device_hash
      where da.user_id = ${a} and db.user_id = ${b})
    or exists (select 1 from users ua join users ub on ub.signup_address = ua.signup_address
      where ua.id = ${a} and ub.id = ${b} and ua.signup_address <> '')
    or exists (select 1 from payout_accounts pa join payout_accounts pb
        on pb.provider = pa.provider and pb.alipay_account = pa.alipay_account
      where pa.user_id = ${a} and pb.user_id = ${b}))`;
}
