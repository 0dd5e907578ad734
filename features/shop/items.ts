import type { Currency } from "../ledger/service.ts";
import type { shopSlots } from "../../server/db/schema/shop.ts";

export type ShopSlot = (typeof shopSlots)[number];

export interface ShopItem {
  /** The stable code (API `item`, catalog key `wallet:items.<code>`, drawn icon). */
  code: string;
  slot: ShopSlot;
  /** The price in each currency it can be bought with. */
  price: Record<Currency, number>;
  /** Bought once per user (badges and frames); the others may be bought again. */
  once: boolean;
}

/** The shop's items. Names and descriptions are texts of the wallet catalog (`items.<code>.name`). */
export const shopItems = [
  { code: "makeup_card", slot: "makeup_card", price: { gold: 100, sinecoin: 2 }, once: false },
  { code: "badge_scholar", slot: "badge", price: { gold: 300, sinecoin: 6 }, once: true },
  { code: "badge_quill", slot: "badge", price: { gold: 300, sinecoin: 6 }, once: true },
  { code: "badge_star", slot: "badge", price: { gold: 500, sinecoin: 10 }, once: true },
  { code: "frame_jade", slot: "frame", price: { gold: 400, sinecoin: 8 }, once: true },
  { code: "frame_gold", slot: "frame", price: { gold: 800, sinecoin: 16 }, once: true },
  { code: "highlight_24h", slot: "highlight", price: { gold: 200, sinecoin: 5 }, once: false },
] as const satisfies readonly ShopItem[];

export type ShopItemCode = (typeof shopItems)[number]["code"];
export const shopItemCodes = shopItems.map((item) => item.code) as [ShopItemCode, ...ShopItemCode[]];

export function shopItem(code: string): ShopItem | undefined {
  return shopItems.find((item) => item.code === code);
}

/** How long a bought highlight keeps a writing at the top of its circle. */
export const highlightHours = 24;
/** How far back a make-up card reaches: a missed day within the last 30 days (today excluded). */
export const makeupWindowDays = 30;
