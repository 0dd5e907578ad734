import { z } from "zod";
import { currencies } from "../../server/db/schema/ledger.ts";
import { idSchema, idValueSchema } from "../../common/id.ts";
import { shopItemCodes } from "./items.ts";

export const purchaseInputSchema = z.strictObject({
  item: z.enum(shopItemCodes, { error: "validation:shop_item" }),
  currency: z.enum(currencies, { error: "validation:shop_currency" }),
  /** The writing to highlight: one of the buyer's own (the `highlight_24h` item only). */
  writing_id: idValueSchema("validation:highlight_writing").optional(),
});
export type PurchaseBody = z.infer<typeof purchaseInputSchema>;

export const ownedParamsSchema = z.strictObject({ id: idSchema });

export const makeupInputSchema = z.strictObject({
  /** The missed day, YYYY-MM-DD in Asia/Shanghai. */
  date: z.iso.date({ error: "validation:makeup_day" }),
});

export const highlightsQuerySchema = z.strictObject({ circle_id: idSchema });
