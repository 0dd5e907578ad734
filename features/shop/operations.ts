import { z } from "zod";
import { defineOperation, noContent } from "../../server/lib/operation.ts";
import { currencies } from "../../server/db/schema/ledger.ts";
import { shopSlots } from "../../server/db/schema/shop.ts";
import { authorize } from "../../common/policy.ts";
import { loadCircleAccess } from "../circles/access.server.ts";
import { canReadCircleContent, canViewCircle } from "../circles/policy.ts";
import { AppError } from "../../common/app-error.ts";
import { makeUpCheckin, type MakeupResult } from "../checkins/makeup.ts";
import { can as canCheckIn } from "../checkins/policy.ts";
import { shopItems, type ShopItem } from "./items.ts";
import { highlightsQuerySchema, makeupInputSchema, ownedParamsSchema, purchaseInputSchema } from "./schema.ts";
import { activeHighlights, listOwnedItems, purchaseItem, setWorn, type Highlight, type OwnedItem, type PurchaseResult } from "./service.ts";

/* The shop: items, purchases, owned items (wear, take off), the make-up card's use and the circles' highlights; the API (features/shop/api.ts), /shop and the personal centre. */

const itemAnswer = z.strictObject({
  item: z.string(),
  slot: z.enum(shopSlots),
  price: z.strictObject({ gold: z.number().int(), sinecoin: z.number().int() }),
  once: z.boolean(),
});

export function presentItem(item: ShopItem): z.infer<typeof itemAnswer> {
  return { item: item.code, slot: item.slot, price: { gold: item.price.gold, sinecoin: item.price.sinecoin }, once: item.once };
}

export const shopItemsOperation = defineOperation({
  name: "shopItems",
  input: {},
  viewer: "optional",
  run: async () => shopItems as readonly ShopItem[],
  present: (items: readonly ShopItem[]) => ({ results: items.map(presentItem) }),
  response: z.strictObject({ results: z.array(itemAnswer) }),
  failures: [],
});

export const purchaseAnswerSchema = z.strictObject({
  owned_id: z.number().int(),
  item: z.string(),
  currency: z.enum(currencies),
  price: z.number().int(),
  balance: z.number().int(),
  expires_at: z.string().nullable(),
});

export const purchaseOperation = defineOperation({
  name: "shopPurchase",
  input: { body: purchaseInputSchema },
  viewer: "signed-in",
  run: (services, viewer, { body }) =>
    purchaseItem(
      { db: services.db },
      viewer,
      { item: body.item, currency: body.currency, writingId: body.writing_id },
      services.idempotencyKey,
      services.now(),
    ),
  present: (result: PurchaseResult) => ({
    owned_id: result.ownedId,
    item: result.item,
    currency: result.currency,
    price: result.price,
    balance: result.balance,
    expires_at: result.expiresAt,
  }),
  response: purchaseAnswerSchema,
  failures: ["insufficient_balance", "item_already_owned", "idempotency_key_required", "idempotency_mismatch"],
  unexpected: "shop_purchase_failed",
});

const ownedAnswer = z.strictObject({
  id: z.number().int(),
  item: z.string(),
  slot: z.enum(shopSlots),
  currency: z.enum(currencies),
  price: z.number().int(),
  bought_at: z.string(),
  worn: z.boolean(),
  used: z.boolean(),
  /** The day a make-up card repaired. */
  used_for: z.string().nullable(),
  highlight: z
    .strictObject({
      writing_id: z.number().int().nullable(),
      title: z.string().nullable(),
      circle_id: z.number().int().nullable(),
      expires_at: z.string(),
      active: z.boolean(),
    })
    .nullable(),
});
export type PresentedOwnedItem = z.infer<typeof ownedAnswer>;

export function presentOwned(owned: OwnedItem, now: Date): PresentedOwnedItem {
  return {
    id: owned.id,
    item: owned.item,
    slot: owned.slot,
    currency: owned.currency,
    price: owned.price,
    bought_at: owned.createdAt.toISOString(),
    worn: owned.worn,
    used: owned.usedAt !== null,
    used_for: owned.slot === "makeup_card" ? owned.usedFor : null,
    highlight:
      owned.slot === "highlight" && owned.expiresAt
        ? {
            writing_id: owned.writingId,
            title: owned.writingTitle,
            circle_id: owned.circleId,
            expires_at: owned.expiresAt.toISOString(),
            active: owned.expiresAt > now && owned.writingId !== null,
          }
        : null,
  };
}

export const ownedItemsOperation = defineOperation({
  name: "shopOwned",
  input: {},
  viewer: "signed-in",
  run: async (services, viewer) => ({ items: await listOwnedItems(services.db, viewer.id), now: services.now() }),
  present: (list: { items: OwnedItem[]; now: Date }) => ({ results: list.items.map((item) => presentOwned(item, list.now)) }),
  response: z.strictObject({ results: z.array(ownedAnswer) }),
  failures: [],
});

export const wearOperation = defineOperation({
  name: "shopWear",
  input: { params: ownedParamsSchema },
  viewer: "signed-in",
  run: (services, viewer, { params }) => setWorn({ db: services.db }, viewer.id, params.id, true),
  present: () => null,
  response: noContent,
  failures: ["not_found"],
});

export const unwearOperation = defineOperation({
  name: "shopUnwear",
  input: { params: ownedParamsSchema },
  viewer: "signed-in",
  run: (services, viewer, { params }) => setWorn({ db: services.db }, viewer.id, params.id, false),
  present: () => null,
  response: noContent,
  failures: ["not_found"],
});

export const makeupAnswerSchema = z.strictObject({
  date: z.string(),
  consecutive_days: z.number().int(),
  cards_left: z.number().int(),
});

/** Uses a make-up card on a missed day (`POST /api/checkins/makeup/`, the personal centre's form). */
export const makeupOperation = defineOperation({
  name: "checkinMakeup",
  input: { body: makeupInputSchema },
  viewer: "signed-in",
  run: (services, viewer, { body }) => {
    authorize(viewer, canCheckIn(viewer, "check_in"));
    return makeUpCheckin({ db: services.db }, viewer.id, body.date, services.now());
  },
  present: (result: MakeupResult) => ({ date: result.day, consecutive_days: result.consecutiveDays, cards_left: result.cardsLeft }),
  response: makeupAnswerSchema,
  failures: ["no_makeup_card", "makeup_day_not_missed", "makeup_day_out_of_range"],
  unexpected: "makeup_failed",
});

const highlightAnswer = z.strictObject({ writing_id: z.number().int(), title: z.string(), type: z.string(), expires_at: z.string() });

export function presentHighlight(highlight: Highlight): z.infer<typeof highlightAnswer> {
  return { writing_id: highlight.writingId, title: highlight.title, type: highlight.type, expires_at: highlight.expiresAt.toISOString() };
}

/** The writings highlighted in a circle now (readable by whoever may view the circle). */
export const highlightsOperation = defineOperation({
  name: "shopHighlights",
  input: { query: highlightsQuerySchema },
  viewer: "optional",
  run: async (services, viewer, { query }) => {
    const access = await loadCircleAccess(services.db, viewer, query.circle_id);
    if (!access || !canViewCircle(access) || !canReadCircleContent(access)) throw new AppError("not_found");
    return activeHighlights(services.db, query.circle_id, services.now());
  },
  present: (highlights: Highlight[]) => ({ results: highlights.map(presentHighlight) }),
  response: z.strictObject({ results: z.array(highlightAnswer) }),
  failures: ["not_found"],
});
