import { z } from "zod";
import { genders } from "./constants.ts";
import { countryCodes } from "./countries.ts";
import { shanghaiDay } from "../../common/locale.ts";

/**
 * Shared by the register/login forms in the browser and by the API and page actions on the server.
 * Messages are keys of the `validation` catalog, translated where they are shown.
 */
export const usernameSchema = z
  .string({ error: "validation:username_required" })
  .trim()
  .min(1, "validation:username_required")
  .min(2, "validation:username_length")
  .max(16, "validation:username_length")
  .regex(/^[A-Za-z0-9_-]+$/, "validation:username_chars");

export const passwordSchema = z
  .string({ error: "validation:password_required" })
  .min(1, "validation:password_required")
  .min(8, "validation:password_length")
  .max(20, "validation:password_length")
  .regex(/[A-Za-z]/, "validation:password_letters_digits")
  .regex(/[0-9]/, "validation:password_letters_digits");

export const emailSchema = z
  .string({ error: "validation:email_required" })
  .trim()
  .min(1, "validation:email_required")
  .max(254, "validation:email_invalid")
  .pipe(z.email("validation:email_invalid"));

/** A real calendar date, not in the future, written YYYY-MM-DD. */
export const birthdaySchema = z
  .string({ error: "validation:birthday_required" })
  .min(1, "validation:birthday_required")
  .refine(isRealPastDate, "validation:birthday_invalid");

/** A real calendar date from 1900 up to today in Asia/Shanghai (the day the form offers as its last). */
export function isRealPastDate(value: string, now: Date = new Date()): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  const real = date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  return real && year >= 1900 && value <= shanghaiDay(now);
}

/** `confirm_password` repeats `password`: the refinement every form with a new password uses. */
export const passwordsMatch = (value: { password: string; confirm_password: string }) => value.password === value.confirm_password;

/**
 * Where and when a mismatch is reported: on `confirm_password`, also when other fields are wrong
 * (so every problem shows at once), and only once both were typed. The body may be anything at
 * all here (`null`, a string), not yet an object.
 */
export const confirmationMismatch = {
  path: ["confirm_password"],
  message: "validation:passwords_not_matching",
  when: ({ value }: { value: unknown }) => {
    if (typeof value !== "object" || value === null) return false;
    const typed = value as { password?: unknown; confirm_password?: unknown };
    return typeof typed.password === "string" && typeof typed.confirm_password === "string" && typed.confirm_password.length > 0;
  },
};

export const registerSchema = z
  .strictObject({
    username: usernameSchema,
    email: emailSchema,
    password: passwordSchema,
    confirm_password: z.string({ error: "validation:confirm_required" }).min(1, "validation:confirm_required"),
    gender: z.enum(genders, { error: "validation:gender_required" }),
    birthday: birthdaySchema,
    country: z.enum(countryCodes, { error: "validation:country_required" }),
    /** A solved slider-puzzle token (required unless CAPTCHA is off). */
    captcha: z.string().max(64, "validation:invalid_value").optional(),
  })
  .refine(passwordsMatch, confirmationMismatch);
export type RegisterInput = z.infer<typeof registerSchema>;

export const loginSchema = z.strictObject({
  /** Username or email. */
  username: z
    .string({ error: "validation:login_required" })
    .trim()
    .min(1, "validation:login_required")
    .max(254, "validation:login_required"),
  password: z
    .string({ error: "validation:password_required" })
    .min(1, "validation:password_required")
    .max(200, "validation:password_length"),
  remember: z.boolean().default(false),
  /** A solved slider-puzzle token (required unless CAPTCHA is off). */
  captcha: z.string().max(64, "validation:invalid_value").optional(),
  /** Instead of the puzzle: a code sent to the account's email or phone (POST /api/Users/login_code/send/). */
  login_code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, "validation:code_format")
    .optional(),
});
export type LoginInput = z.infer<typeof loginSchema>;

/** Field name → message key, first issue per field, from a failed parse. */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const result: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? "form");
    result[field] ??= issue.message;
  }
  return result;
}
