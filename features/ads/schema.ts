import { z } from "zod";
import { idValueSchema } from "../../common/id.ts";
import { adLanguages, adSettings } from "./settings.ts";

/* The campaign form: one schema for `POST /api/ads/campaigns/` and the `/ads/start` page. */

const day = z.string({ error: "validation:ads_date" }).regex(/^\d{4}-\d{2}-\d{2}$/, "validation:ads_date");
const amount = z
  .number({ error: "validation:whole_amount" })
  .int("validation:whole_amount")
  .min(1, "validation:whole_amount")
  .max(adSettings.maxBudget, "validation:amount_too_large");

/** A destination: an absolute http(s) address, no credentials in it. */
export function isAdDestination(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "https:" || url.protocol === "http:") && !url.username && !url.password && url.hostname.includes(".");
  } catch {
    return false;
  }
}

const creativeFields = {
  title: z.string({ error: "validation:ads_title" }).trim().min(1, "validation:ads_title").max(30, "validation:ads_title"),
  text: z.string({ error: "validation:ads_text" }).trim().min(1, "validation:ads_text").max(80, "validation:ads_text"),
  image_file_id: z.string({ error: "validation:ads_image" }).regex(/^[A-Za-z0-9_-]{8,64}$/, "validation:ads_image"),
  url: z.string({ error: "validation:ads_url" }).trim().max(2000, "validation:ads_url").refine(isAdDestination, "validation:ads_url"),
};

/** A changed creative (`PATCH /api/ads/campaigns/{id}/` and `/ads/me`): it goes back to review. */
export const creativeInputSchema = z.strictObject(creativeFields);
export type CreativeInput = z.output<typeof creativeInputSchema>;

export const campaignInputSchema = z
  .strictObject({
    ...creativeFields,
    circle_ids: z.array(idValueSchema()).max(20, "validation:invalid_value").default([]),
    languages: z.array(z.enum(adLanguages, "validation:invalid_value")).min(1, "validation:ads_languages").max(2),
    pricing: z.strictObject({
      model: z.enum(["cpm", "cpc"], "validation:invalid_value"),
      price: amount,
    }),
    budget: amount,
    daily_cap: amount,
    starts_on: day,
    ends_on: day,
  })
  .superRefine((input, context) => {
    if (input.pricing.price < adSettings.floor[input.pricing.model])
      context.addIssue({ code: "custom", path: ["pricing", "price"], message: "validation:ads_price_floor" });
    if (input.daily_cap > input.budget) context.addIssue({ code: "custom", path: ["daily_cap"], message: "validation:ads_daily_cap" });
    if (input.ends_on < input.starts_on) context.addIssue({ code: "custom", path: ["ends_on"], message: "validation:ads_dates" });
  });
export type CampaignInput = z.output<typeof campaignInputSchema>;
