import { and, asc, desc, eq, gt, inArray, isNull } from "drizzle-orm";
import type { Database, Executor } from "../../server/db/client.ts";
import { shopOwnedItems, users, writings } from "../../server/db/schema/index.ts";
import { AppError } from "../../common/app-error.ts";
import { onceByKey, requireIdempotencyKey } from "../../server/lib/idempotency.ts";
import { inTransaction, type ServiceOptions, type Transaction } from "../../server/lib/transactions.ts";
import { adornmentsTag, circleTag, userTag } from "../../server/lib/cache-tags.ts";
import { taggedMemory } from "../../server/lib/tagged-memory.ts";
import { postLedgerTransaction, type Currency } from "../ledger/service.ts";
import type { Viewer } from "../accounts/viewer.ts";
import { emit } from "../events/bus.ts";
import type { WritingType } from "../writings/schema.ts";
import { highlightHours, shopItem, type ShopItemCode, type ShopSlot } from "./items.ts";

/** The shop's till: what users pay for items goes here (double entry). */
const till = (currency: Currency) => ({ system: "shop", currency }) as const;

export interface PurchaseInput {
  item: ShopItemCode;
  currency: Currency;
  /** The writing to highlight (the `highlight_24h` item only). */
  writingId?: number | undefined;
}

export interface PurchaseResult {
  ownedId: number;
  item: string;
  currency: Currency;
  price: number;
  /** The buyer's balance of that currency afterwards. */
  balance: number;
  /** Until when the writing stays highlighted (highlights only). */
  expiresAt: string | null;
}

function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: string })?.code ?? (error as { cause?: { code?: string } })?.cause?.code;
  return code === "23505";
}

/**
 * Buys one item: the owned row and one balanced ledger transaction (`shop_purchase`, the buyer
 * pays the shop's till) in one database transaction, once per idempotency key. A balance that does
 * not cover the price is refused by the database (`insufficient_balance`); a badge or frame already
 * owned is `item_already_owned`; a highlight names one of the buyer's own published writings and
 * starts at once, for 24 hours.
 */
export async function purchaseItem(
  options: ServiceOptions,
  viewer: Viewer,
  input: PurchaseInput,
  idempotencyKey: string | undefined,
  now: Date,
): Promise<PurchaseResult> {
  const key = requireIdempotencyKey(idempotencyKey);
  const item = shopItem(input.item);
  if (!item) throw new AppError("not_found");
  const writingId = item.slot === "highlight" ? input.writingId : undefined;
  if (item.slot === "highlight" && writingId === undefined)
    throw new AppError("validation_failed", { fields: { writing_id: "validation:highlight_writing" } });
  const price = item.price[input.currency];
  return inTransaction(options, (tx) =>
    onceByKey(
      tx,
      {
        userId: viewer.id,
        key,
        operation: "shop_purchase",
        input: { item: item.code, currency: input.currency, writing_id: writingId ?? null },
      },
      async () => {
        let circleId: number | null = null;
        if (writingId !== undefined) {
          const [writing] = await tx.db
            .select({ authorId: writings.authorId, circleId: writings.circleId, hiddenAt: writings.hiddenAt })
            .from(writings)
            .where(eq(writings.id, writingId));
          if (!writing || writing.authorId !== viewer.id || writing.hiddenAt)
            throw new AppError("validation_failed", { fields: { writing_id: "validation:highlight_writing" } });
          circleId = writing.circleId;
        }
        if (item.once) {
          const owned = await tx.db.$count(
            shopOwnedItems,
            and(eq(shopOwnedItems.userId, viewer.id), eq(shopOwnedItems.uniqueItem, item.code)),
          );
          if (owned > 0) throw new AppError("item_already_owned");
        }
        const expiresAt = circleId !== null ? new Date(now.getTime() + highlightHours * 3_600_000) : null;
        let ownedId: number;
        try {
          const [owned] = await tx.db
            .insert(shopOwnedItems)
            .values({
              userId: viewer.id,
              item: item.code,
              slot: item.slot,
              currency: input.currency,
              price,
              uniqueItem: item.once ? item.code : null,
              writingId: writingId ?? null,
              circleId,
              expiresAt,
              usedAt: circleId !== null ? now : null,
              usedFor: writingId !== undefined ? String(writingId) : null,
              createdAt: now,
            })
            .returning({ id: shopOwnedItems.id });
          ownedId = owned!.id;
        } catch (error) {
          if (isUniqueViolation(error)) throw new AppError("item_already_owned");
          throw error;
        }
        await postLedgerTransaction(tx, {
          idempotencyKey: `shop:${viewer.id}:${key}`,
          kind: "shop_purchase",
          // `title` is the item's code: the wallet shows its name in the reader's language.
          data: { item: item.code, title: item.code, path: "/shop", ownedId },
          entries: [
            { account: { userId: viewer.id, currency: input.currency }, amount: -price },
            { account: till(input.currency), amount: price },
          ],
        });
        await emit(tx, {
          actorId: viewer.id,
          verb: "user.shop_purchased",
          subjectId: viewer.id,
          data: { item: item.code, currency: input.currency, price },
        });
        const [row] = await tx.db.select({ gold: users.gold, sinecoin: users.sinecoin }).from(users).where(eq(users.id, viewer.id));
        tx.invalidate(userTag(viewer.id));
        if (circleId !== null) tx.invalidate(circleTag(circleId));
        return {
          ownedId,
          item: item.code,
          currency: input.currency,
          price,
          balance: row![input.currency],
          expiresAt: expiresAt?.toISOString() ?? null,
        };
      },
    ),
  );
}

export interface OwnedItem {
  id: number;
  item: string;
  slot: ShopSlot;
  currency: Currency;
  price: number;
  worn: boolean;
  usedAt: Date | null;
  usedFor: string | null;
  writingId: number | null;
  writingTitle: string | null;
  circleId: number | null;
  expiresAt: Date | null;
  createdAt: Date;
}

/** What the user bought, newest first: cards (used or not), badges and frames (worn or not), highlights. */
export async function listOwnedItems(db: Database, userId: number): Promise<OwnedItem[]> {
  return db
    .select({
      id: shopOwnedItems.id,
      item: shopOwnedItems.item,
      slot: shopOwnedItems.slot,
      currency: shopOwnedItems.currency,
      price: shopOwnedItems.price,
      worn: shopOwnedItems.worn,
      usedAt: shopOwnedItems.usedAt,
      usedFor: shopOwnedItems.usedFor,
      writingId: shopOwnedItems.writingId,
      writingTitle: writings.title,
      circleId: shopOwnedItems.circleId,
      expiresAt: shopOwnedItems.expiresAt,
      createdAt: shopOwnedItems.createdAt,
    })
    .from(shopOwnedItems)
    .leftJoin(writings, eq(writings.id, shopOwnedItems.writingId))
    .where(eq(shopOwnedItems.userId, userId))
    .orderBy(desc(shopOwnedItems.id))
    .limit(200);
}

/**
 * Wears a badge or frame the user owns (taking off the one worn in that slot), or takes it off.
 * Someone else's item, or one that cannot be worn, is `not_found`.
 */
export async function setWorn(options: ServiceOptions, userId: number, ownedId: number, worn: boolean): Promise<void> {
  await inTransaction(options, async (tx) => {
    const [owned] = await tx.db
      .select({ slot: shopOwnedItems.slot })
      .from(shopOwnedItems)
      .where(and(eq(shopOwnedItems.id, ownedId), eq(shopOwnedItems.userId, userId)))
      .for("update");
    if (!owned || (owned.slot !== "badge" && owned.slot !== "frame")) throw new AppError("not_found");
    if (worn) {
      await tx.db
        .update(shopOwnedItems)
        .set({ worn: false })
        .where(and(eq(shopOwnedItems.userId, userId), eq(shopOwnedItems.slot, owned.slot), eq(shopOwnedItems.worn, true)));
    }
    await tx.db.update(shopOwnedItems).set({ worn }).where(eq(shopOwnedItems.id, ownedId));
    tx.invalidate(userTag(userId), adornmentsTag(userId));
  });
}

export interface Adornments {
  /** The code of the badge worn, or null. */
  badge: string | null;
  /** The code of the avatar frame worn, or null. */
  frame: string | null;
}

/**
 * What users wear, remembered per user under `adornmentsTag` (wearing or taking off an item
 * invalidates it): a reading page's author card reads it on every request.
 */
const wornMemory = taggedMemory<Adornments>("adornments", { ttlMs: 60_000, maxEntries: 50_000 });

/** What a user wears, for their profile and author cards. */
export async function adornmentsOf(db: Executor, userId: number): Promise<Adornments> {
  return wornMemory.read(db, userId, async () => {
    const rows = await db
      .select({ item: shopOwnedItems.item, slot: shopOwnedItems.slot })
      .from(shopOwnedItems)
      .where(and(eq(shopOwnedItems.userId, userId), eq(shopOwnedItems.worn, true)));
    const value = {
      badge: rows.find((row) => row.slot === "badge")?.item ?? null,
      frame: rows.find((row) => row.slot === "frame")?.item ?? null,
    };
    return { value, tags: [adornmentsTag(userId)] };
  });
}

/** What each of these users wears (users wearing nothing are left out). */
export async function adornmentsOfMany(db: Executor, userIds: number[]): Promise<Map<number, Adornments>> {
  const found = new Map<number, Adornments>();
  if (userIds.length === 0) return found;
  const rows = await db
    .select({ userId: shopOwnedItems.userId, item: shopOwnedItems.item, slot: shopOwnedItems.slot })
    .from(shopOwnedItems)
    .where(and(inArray(shopOwnedItems.userId, [...new Set(userIds)]), eq(shopOwnedItems.worn, true)));
  for (const row of rows) {
    const adornments = found.get(row.userId) ?? { badge: null, frame: null };
    if (row.slot === "badge") adornments.badge = row.item;
    if (row.slot === "frame") adornments.frame = row.item;
    found.set(row.userId, adornments);
  }
  return found;
}

/** Author cards with what each author wears (`badge`, `frame`). */
export async function withAdornments<T extends { id: number }>(db: Executor, people: T[]): Promise<(T & Adornments)[]> {
  const found = await adornmentsOfMany(
    db,
    people.map((person) => person.id),
  );
  return people.map((person) => ({ ...person, ...(found.get(person.id) ?? { badge: null, frame: null }) }));
}

export interface Highlight {
  writingId: number;
  title: string;
  type: WritingType;
  expiresAt: Date;
}

/**
 * The circle's writings highlighted now (bought highlights whose 24 hours have not run out: the
 * time is compared when read, so nothing has to end them), the soonest to end last; hidden
 * writings are left out.
 */
export async function activeHighlights(db: Executor, circleId: number, now: Date): Promise<Highlight[]> {
  const rows = await db
    .select({ writingId: writings.id, title: writings.title, type: writings.type, expiresAt: shopOwnedItems.expiresAt })
    .from(shopOwnedItems)
    .innerJoin(writings, eq(writings.id, shopOwnedItems.writingId))
    .where(and(eq(shopOwnedItems.circleId, circleId), gt(shopOwnedItems.expiresAt, now), isNull(writings.hiddenAt)))
    .orderBy(desc(shopOwnedItems.expiresAt), asc(writings.id));
  const seen = new Set<number>();
  return rows
    .filter((row) => !seen.has(row.writingId) && seen.add(row.writingId))
    .map((row) => ({ writingId: row.writingId, title: row.title, type: row.type, expiresAt: row.expiresAt! }));
}

/** The user's published writings a highlight may name (the newest 50). */
export async function highlightableWritings(db: Database, userId: number): Promise<{ id: number; title: string }[]> {
  return db
    .select({ id: writings.id, title: writings.title })
    .from(writings)
    .where(and(eq(writings.authorId, userId), isNull(writings.hiddenAt)))
    .orderBy(desc(writings.publishedAt))
    .limit(50);
}

/**
 * Uses one of the user's unused make-up cards for `day` inside the caller's transaction (the
 * check-in repair, `features/checkins/makeup.ts`): the oldest card is locked and marked used, so
 * two repairs racing for the last card cannot both have it. No card is `no_makeup_card`.
 */
export async function consumeMakeupCard(tx: Transaction, userId: number, day: string, now: Date): Promise<number> {
  const [card] = await tx.db
    .select({ id: shopOwnedItems.id })
    .from(shopOwnedItems)
    .where(and(eq(shopOwnedItems.userId, userId), eq(shopOwnedItems.slot, "makeup_card"), isNull(shopOwnedItems.usedAt)))
    .orderBy(asc(shopOwnedItems.id))
    .limit(1)
    .for("update");
  if (!card) throw new AppError("no_makeup_card");
  const used = await tx.db
    .update(shopOwnedItems)
    .set({ usedAt: now, usedFor: day })
    .where(and(eq(shopOwnedItems.id, card.id), isNull(shopOwnedItems.usedAt)))
    .returning({ id: shopOwnedItems.id });
  if (used.length === 0) throw new AppError("no_makeup_card");
  return card.id;
}

/** How many unused make-up cards the user holds. */
export async function makeupCardCount(db: Executor, userId: number): Promise<number> {
  return db.$count(
    shopOwnedItems,
    and(eq(shopOwnedItems.userId, userId), eq(shopOwnedItems.slot, "makeup_card"), isNull(shopOwnedItems.usedAt)),
  );
}
