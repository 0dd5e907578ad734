import { z } from "zod";

export const cashoutAmountSchema = z.strictObject({
  amount: z
    .number({ error: "validation:whole_amount" })
    .int("validation:whole_amount")
    .min(1, "validation:whole_amount")
    .max(10_000_000, "validation:amount_too_large"),
});

export const cashoutIdSchema = z.object({ id: z.string().regex(/^co_[0-9a-f]{24}$/) });

export const cashoutListQuerySchema = z.object({
  cursor: z
    .string()
    .regex(/^\d{1,15}_co_[0-9a-f]{24}$/)
    .optional(),
});

export const sandboxMarkSchema = z.strictObject({ outcome: z.enum(["paid", "failed"]) });
