import { z } from "zod";

/** Preset amounts of the tip form; any whole amount up to the maximum may be typed. */
export const tipPresets = [1, 5, 10, 50] as const;
export const tipMax = 10_000;

export const tipInputSchema = z.strictObject({
  amount: z
    .number({ error: "validation:whole_amount" })
    .int("validation:whole_amount")
    .min(1, "validation:whole_amount")
    .max(tipMax, "validation:amount_too_large"),
  message: z.string().trim().max(200, "validation:tip_message_too_long").optional(),
});
export type TipInput = z.infer<typeof tipInputSchema>;
