import { sql } from "drizzle-orm";
import type { Database } from "../../server/db/client.ts";
import type { FilterReason } from "./settings.ts";
import type { ServedAd } from "./token.ts";

/*
 * Ad counts, buffered in memory and flushed every second in one statement per flush
 * (docs/features/ads.md). The statement inserts one mark per served ad and event type and adds to
 * the day's counters only what it marked, so a flush repeated (a retry, another process holding
 * the same event) never counts twice; a kill -9 loses at most the unflushed second.
 */

export type AdEventType = "served" | "viewable" | "click";

interface BufferedEvent {
  serve: string;
  type: AdEventType;
  campaignId: number;
  day: string;
  creatorId: number;
  filter: FilterReason | "";
}

interface Buffer {
  events: Map<string, BufferedEvent>;
  timer: NodeJS.Timeout | null;
  flushing: Promise<void> | null;
}

const buffers = new WeakMap<Database, Buffer>();
/** A flush takes at most this many events (one statement); the rest wait for the next second. */
const maxPerFlush = 20_000;
/** Beyond this many waiting events (the database is down), new ones are dropped rather than eat memory. */
const maxWaiting = 200_000;

function bufferOf(db: Database): Buffer {
  let buffer = buffers.get(db);
  if (!buffer) {
    buffer = { events: new Map(), timer: null, flushing: null };
    buffers.set(db, buffer);
  }
  return buffer;
}

/** Starts the once-a-second flush of this database's buffer (the server does; API tests flush by hand). */
export function startAdCounting(db: Database, onError: (error: unknown) => void): () => Promise<void> {
  const buffer = bufferOf(db);
  if (!buffer.timer) {
    buffer.timer = setInterval(() => {
      flushAdEvents(db).catch(onError);
    }, 1000);
    buffer.timer.unref();
  }
  return async () => {
    if (buffer.timer) clearInterval(buffer.timer);
    buffer.timer = null;
    await flushAdEvents(db).catch(onError);
  };
}

/** Records an event of a served ad; a viewable report or a click also records the serve (a click implies its impression). */
export function recordAdEvent(db: Database, ad: ServedAd, type: AdEventType, filter: FilterReason | "" = ad.filter): void {
  const buffer = bufferOf(db);
  if (buffer.events.size >= maxWaiting) return;
  const base = { serve: ad.serve, campaignId: ad.campaignId, day: ad.day, creatorId: ad.creatorId };
  if (type !== "served" && !buffer.events.has(`${ad.serve}:served`))
    buffer.events.set(`${ad.serve}:served`, { ...base, type: "served", filter: ad.filter });
  const key = `${ad.serve}:${type}`;
  if (!buffer.events.has(key)) buffer.events.set(key, { ...base, type, filter });
}

/** Writes what is buffered now (one statement); concurrent calls wait for the flush under way. */
export async function flushAdEvents(db: Database): Promise<number> {
  const buffer = bufferOf(db);
  while (buffer.flushing) await buffer.flushing;
  if (buffer.events.size === 0) return 0;
  const taken: BufferedEvent[] = [];
  for (const [key, event] of buffer.events) {
    taken.push(event);
    buffer.events.delete(key);
    if (taken.length >= maxPerFlush) break;
  }
  const run = writeEvents(db, taken).catch((error: unknown) => {
    // Not written: back into the buffer for the next flush (the marks make a partial repeat harmless).
    for (const event of taken) buffer.events.set(`${event.serve}:${event.type}`, event);
    throw error;
  });
  buffer.flushing = run.finally(() => {
    buffer.flushing = null;
  });
  await run;
  return taken.length;
}

async function writeEvents(db: Database, events: BufferedEvent[]): Promise<void> {
  // Served before the rest of the same ad: sorted, so marks are taken in one order (no deadlock between processes).
  const rows = events
    .map((event) => ({ s: event.serve, t: event.type, c: event.campaignId, d: event.day, a: event.creatorId, f: event.filter }))
    .sort((a, b) => (a.s === b.s ? a.t.localeCompare(b.t) : a.s < b.s ? -1 : 1));
  await db.execute(sql`
    with incoming as (
      select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(s text, t text, c int, d date, a int, f text)
    ),
    marked as (
      insert into ad_event_marks (serve_id, type, day)
      select s, t, d from incoming
      on conflict do nothing
      returning serve_id, type
    ),
    counted as (
      select i.c, i.d, i.a,
        count(*) filter (where i.t = 'served')::int as served,
        count(*) filter (where i.t = 'viewable')::int as viewable,
        count(*) filter (where i.t = 'click')::int as clicks,
        count(*) filter (where i.t = 'viewable' and i.f <> '')::int as filtered_viewable,
        count(*) filter (where i.t = 'click' and i.f <> '')::int as filtered_clicks,
        count(*) filter (where i.t <> 'served' and i.f = 'bot')::int as bot,
        count(*) filter (where i.t <> 'served' and i.f = 'limit')::int as lim,
        count(*) filter (where i.t <> 'served' and i.f = 'self')::int as self,
        count(*) filter (where i.t <> 'served' and i.f = 'no_script')::int as no_script
      from incoming i join marked m on m.serve_id = i.s and m.type = i.t
      where exists (select 1 from ad_campaigns where id = i.c)
      group by i.c, i.d, i.a
    )
    insert into ad_daily_counts (campaign_id, day, creator_id, served, viewable, clicks, filtered_viewable, filtered_clicks,
      filtered_bot, filtered_limit, filtered_self, filtered_no_script)
    select c, d, a, served, viewable, clicks, filtered_viewable, filtered_clicks, bot, lim, self, no_script from counted
    order by c, d, a
    on conflict (campaign_id, day, creator_id) do update set
      served = ad_daily_counts.served + excluded.served,
      viewable = ad_daily_counts.viewable + excluded.viewable,
      clicks = ad_daily_counts.clicks + excluded.clicks,
      filtered_viewable = ad_daily_counts.filtered_viewable + excluded.filtered_viewable,
      filtered_clicks = ad_daily_counts.filtered_clicks + excluded.filtered_clicks,
      filtered_bot = ad_daily_counts.filtered_bot + excluded.filtered_bot,
      filtered_limit = ad_daily_counts.filtered_limit + excluded.filtered_limit,
      filtered_self = ad_daily_counts.filtered_self + excluded.filtered_self,
      filtered_no_script = ad_daily_counts.filtered_no_script + excluded.filtered_no_script`);
}

/** Marks older than the tokens' life are no longer needed to refuse a repeat: dropped daily. */
export async function pruneAdMarks(db: Database, beforeDay: string): Promise<void> {
  await db.execute(sql`delete from ad_event_marks where day < ${beforeDay}::date`);
}
