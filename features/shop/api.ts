import type { FastifyInstance } from "fastify";
import { jsonRoute } from "../../server/lib/operation.ts";
import {
  highlightsOperation,
  makeupOperation,
  ownedItemsOperation,
  purchaseOperation,
  shopItemsOperation,
  unwearOperation,
  wearOperation,
} from "./operations.ts";

/** The shop. Purchases move money: they carry an `Idempotency-Key` header. */
export async function shopApi(app: FastifyInstance): Promise<void> {
  const tags = ["shop"];
  jsonRoute(app, "GET", "/api/shop/items/", shopItemsOperation, {
    tags,
    summary: "The shop's items with their prices in gold and sinecoin",
    cache: "no-store",
  });
  jsonRoute(app, "POST", "/api/shop/purchases/", purchaseOperation, {
    status: 201,
    tags,
    summary: "Buy an item with gold or sinecoin (Idempotency-Key required); a highlight names one of the buyer's writings",
  });
  jsonRoute(app, "GET", "/api/shop/owned/", ownedItemsOperation, { tags, summary: "What the viewer bought, newest first" });
  jsonRoute(app, "PUT", "/api/shop/owned/:id/wear/", wearOperation, {
    status: 204,
    tags,
    summary: "Wear an owned badge or avatar frame (the one worn in that slot comes off)",
  });
  jsonRoute(app, "DELETE", "/api/shop/owned/:id/wear/", unwearOperation, {
    status: 204,
    tags,
    summary: "Take an owned badge or frame off",
  });
  jsonRoute(app, "GET", "/api/shop/highlights/", highlightsOperation, {
    tags,
    summary: "The writings highlighted in a circle now (bought highlights, 24 hours each)",
    cache: "no-store",
  });
  jsonRoute(app, "POST", "/api/checkins/makeup/", makeupOperation, {
    tags: ["check-in"],
    summary: "Repair a missed day of the check-in streak with a make-up card (within the last 30 days)",
    cache: "no-store",
  });
}
