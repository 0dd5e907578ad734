import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { filterReasons, type FilterReason } from "./settings.ts";

/**
 * A served ad's token: what was served (campaign, day, the creator whose page showed it, the
 * reason it is filtered, if any) signed with the site's secret, so a viewable report or a click
 * counts only for an ad the server really served, and once per serve (its `serve` id).
 */
export interface ServedAd {
  serve: string;
  campaignId: number;
  day: string;
  creatorId: number;
  /** Why its events are never billed ("" when they may be). */
  filter: FilterReason | "";
  /** When it was served (ms), for the token's life. */
  at: number;
}

function signature(secret: string, body: string): Buffer {
  return createHmac("sha256", secret).update(`ads\n${body}`).digest().subarray(0, 16);
}

export function newServeId(): string {
  return randomBytes(12).toString("base64url");
}

export function signServedAd(secret: string, ad: ServedAd): string {
  const body = [ad.serve, ad.campaignId, ad.day, ad.creatorId, ad.filter, ad.at.toString(36)].join("~");
  const encoded = Buffer.from(body).toString("base64url");
  return `${encoded}.${signature(secret, encoded).toString("base64url")}`;
}

/** The served ad a token names, or null when it is malformed or not ours. */
export function readServedAd(secret: string, token: string): ServedAd | null {
  if (token.length > 300) return null;
  const [encoded, signed, extra] = token.split(".");
  if (!encoded || !signed || extra !== undefined) return null;
  const given = Buffer.from(signed, "base64url");
  const expected = signature(secret, encoded);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const [serve, campaign, day, creator, filter, at] = Buffer.from(encoded, "base64url").toString().split("~");
  const campaignId = Number(campaign);
  const creatorId = Number(creator);
  const time = parseInt(at ?? "", 36);
  if (!serve || !Number.isSafeInteger(campaignId) || !Number.isSafeInteger(creatorId) || !/^\d{4}-\d{2}-\d{2}$/.test(day ?? ""))
    return null;
  if (filter !== "" && !filterReasons.includes(filter as FilterReason)) return null;
  if (!Number.isFinite(time)) return null;
  return { serve, campaignId, day: day!, creatorId, filter: filter as FilterReason | "", at: time };
}
