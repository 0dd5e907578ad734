import { randomUUID } from "node:crypto";
import { data } from "react-router";
import type { AppContext } from "../context.ts";
import { withFormToken } from "./circle-pages.server.ts";
import { presentWallet } from "../../features/wallet/operations.ts";
import { walletSummary } from "../../features/wallet/service.ts";
import { presentItem, presentOwned } from "../../features/shop/operations.ts";
import { shopItems } from "../../features/shop/items.ts";
import { highlightableWritings, listOwnedItems } from "../../features/shop/service.ts";
import { missedDays } from "../../features/checkins/makeup.ts";
import { membershipPlans } from "../../features/monetization/memberships.ts";
import { membershipOf } from "../../features/monetization/membership-service.ts";
import { presentMembership, presentPlan } from "../../features/monetization/membership-operations.ts";

/**
 * The shop page's data: the items for everyone; for the signed in also their balances, what they
 * own, their writings a highlight may name, the CSRF token and a fresh idempotency key (a Buy form
 * sent twice buys once).
 */
export async function shopPageData(app: AppContext, notice: { bought: string | null; member: boolean }) {
  const items = shopItems.map(presentItem);
  const plans = membershipPlans.map(presentPlan);
  if (!app.viewer) {
    return data({
      items,
      plans,
      membership: null as ReturnType<typeof presentMembership> | null,
      notice,
      signedIn: false as boolean,
      wallet: null,
      owned: [] as string[],
      writings: [] as { id: number; title: string }[],
      csrfToken: "",
      idempotencyKey: "",
    });
  }
  const viewer = app.viewer;
  const [wallet, owned, writings, membership] = await Promise.all([
    walletSummary(app.db, viewer.id),
    listOwnedItems(app.db, viewer.id),
    highlightableWritings(app.db, viewer.id),
    membershipOf(app.db, viewer.id, app.now()),
  ]);
  return withFormToken(app, {
    items,
    plans,
    membership: membership ? presentMembership(membership) : null,
    notice,
    signedIn: true as boolean,
    wallet: presentWallet(wallet) as ReturnType<typeof presentWallet> | null,
    owned: owned.filter((row) => row.slot === "badge" || row.slot === "frame").map((row) => row.item),
    writings,
    idempotencyKey: randomUUID(),
  });
}

/** The personal centre's shop section: owned items (with wear and use actions) and the days a make-up card could repair. */
export async function ownedItemsData(app: AppContext, userId: number) {
  const now = app.now();
  const [owned, missed] = await Promise.all([listOwnedItems(app.db, userId), missedDays(app.db, userId, now)]);
  return { owned: owned.map((row) => presentOwned(row, now)), missedDays: missed };
}
