import { z } from "zod";
import { isMultiLine, isSingleLine } from "../../common/single-line.ts";
import { genders } from "../accounts/constants.ts";
import { countryCodes } from "../accounts/countries.ts";
import { hogwartsHouses } from "../schools/constants.ts";
import { birthdaySchema, confirmationMismatch, passwordSchema, passwordsMatch } from "../accounts/schema.ts";

/** Limits of the profile form (the spec names the fields, not their lengths; these follow Zhihu/Juejin). */
export const profileLimits = { nickname: 20, signature: 100, selfDescription: 1000, school: 50, profession: 50 } as const;

const text = (max: number, tooLong: string, lines: "single" | "multi" = "single") =>
  z
    .string({ error: "validation:invalid_value" })
    .trim()
    .max(max, tooLong)
    .refine(lines === "single" ? isSingleLine : isMultiLine, "validation:invalid_characters");

export const profileFields = {
  nickname: z
    .string({ error: "validation:nickname_required" })
    .trim()
    .min(1, "validation:nickname_required")
    .max(profileLimits.nickname, "validation:nickname_length")
    .refine(isSingleLine, "validation:invalid_characters"),
  signature: text(profileLimits.signature, "validation:signature_too_long"),
  self_description: text(profileLimits.selfDescription, "validation:self_description_too_long", "multi"),
  gender: z.enum(genders, { error: "validation:gender_required" }),
  birthday: birthdaySchema,
  country: z.enum(countryCodes, { error: "validation:country_required" }),
  school: text(profileLimits.school, "validation:school_too_long"),
  profession: text(profileLimits.profession, "validation:profession_too_long"),
  /** The spec's `Hogwarts_school`: a light-hearted house for the school zone; empty for none. */
  hogwarts_school: z.enum(["", ...hogwartsHouses], { error: "validation:hogwarts_house_invalid" }),
};

/** The whole form (page and `PATCH` alike accept any subset: the page sends all of it). */
export const profileSchema = z.strictObject(profileFields);
export type ProfileInput = z.infer<typeof profileSchema>;

export const profileUpdateSchema = profileSchema.partial();
export type ProfileUpdate = z.infer<typeof profileUpdateSchema>;

export const passwordChangeSchema = z
  .strictObject({
    old_password: z
      .string({ error: "validation:old_password_required" })
      .min(1, "validation:old_password_required")
      .max(200, "validation:password_length"),
    password: passwordSchema,
    confirm_password: z.string({ error: "validation:confirm_required" }).min(1, "validation:confirm_required"),
  })
  .refine(passwordsMatch, confirmationMismatch);
export type PasswordChangeInput = z.infer<typeof passwordChangeSchema>;

const profileFieldNames = [
  "nickname",
  "signature",
  "self_description",
  "gender",
  "birthday",
  "country",
  "school",
  "profession",
  "hogwarts_school",
] as const;

/** The posted profile form as the schema expects it (browser and server). */
export function profileInputFromForm(form: FormData) {
  return Object.fromEntries(profileFieldNames.map((name) => [name, stringOrUndefined(form.get(name))]));
}

export function passwordInputFromForm(form: FormData) {
  return {
    old_password: stringOrUndefined(form.get("old_password")),
    password: stringOrUndefined(form.get("password")),
    confirm_password: stringOrUndefined(form.get("confirm_password")),
  };
}

function stringOrUndefined(value: FormDataEntryValue | null): string | undefined {
  return typeof value === "string" ? value : undefined;
}
