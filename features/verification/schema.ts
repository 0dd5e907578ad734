import { z } from "zod";
import { confirmationMismatch, emailSchema, passwordSchema, passwordsMatch, usernameSchema } from "../accounts/schema.ts";
import { captchaTokenSchema } from "../captcha/schema.ts";

/**
 * Shared by the pages (checked in the browser before sending) and the API. Whether a phone number
 * is real is decided on the server (libphonenumber-js's full metadata stays out of the browser).
 */
export const phoneSchema = z
  .string({ error: "validation:phone_required" })
  .trim()
  .min(1, "validation:phone_required")
  .max(40, "validation:phone_invalid")
  .regex(/^\+?[\d\s().-]+$/, "validation:phone_invalid");

/** ISO 3166 region a number without "+" is read in (China unless said otherwise). */
export const phoneRegionSchema = z.string().regex(/^[A-Z]{2}$/, "validation:invalid_value");

export const codeSchema = z
  .string({ error: "validation:code_required" })
  .trim()
  .min(1, "validation:code_required")
  .regex(/^\d{6}$/, "validation:code_format");

const captcha = captchaTokenSchema.optional();

export const smsSendCodeSchema = z.strictObject({ phone: phoneSchema, region: phoneRegionSchema.optional(), captcha });
export type SmsSendCodeInput = z.infer<typeof smsSendCodeSchema>;

export const smsLoginSchema = z.strictObject({
  phone: phoneSchema,
  region: phoneRegionSchema.optional(),
  code: codeSchema,
  remember: z.boolean().default(false),
  /** Only on first use, to create the account bound to the phone. */
  username: usernameSchema.optional(),
});
export type SmsLoginInput = z.infer<typeof smsLoginSchema>;

export const passwordResetSendCodeSchema = z.strictObject({ email: emailSchema, captcha });
export type PasswordResetSendCodeInput = z.infer<typeof passwordResetSendCodeSchema>;

export const passwordResetVerifySchema = z.strictObject({ email: emailSchema, code: codeSchema });
export type PasswordResetVerifyInput = z.infer<typeof passwordResetVerifySchema>;

export const passwordResetSetSchema = z
  .strictObject({
    token: z
      .string({ error: "validation:reset_token_required" })
      .min(1, "validation:reset_token_required")
      .max(100, "validation:reset_token_required"),
    password: passwordSchema,
    confirm_password: z.string({ error: "validation:confirm_required" }).min(1, "validation:confirm_required"),
  })
  .refine(passwordsMatch, confirmationMismatch);
export type PasswordResetSetInput = z.infer<typeof passwordResetSetSchema>;

/** The puzzle's alternative: a code to the email (or phone) of the account named on the login form. */
export const loginCodeSendSchema = z.strictObject({
  username: z
    .string({ error: "validation:login_required" })
    .trim()
    .min(1, "validation:login_required")
    .max(254, "validation:login_required"),
});
export type LoginCodeSendInput = z.infer<typeof loginCodeSendSchema>;
