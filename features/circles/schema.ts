import { z } from "zod";
import { idValueSchema } from "../../common/id.ts";
import { locales, type Locale } from "../../common/locale.ts";
import { singleLinePattern } from "../../common/single-line.ts";

/**
 * Shared by the circle forms in the browser and by the API and page actions on the server.
 * Messages are keys of the `validation` catalog.
 */
export const circleVisibilityValues = ["public", "circle", "parent", "members"] as const;
export const circleRoleValues = ["member", "master", "admin", "super_admin", "founder"] as const;
/** Roles a manager may give; nobody is ever made founder. */
export const assignableRoles = ["member", "master", "admin", "super_admin"] as const;

export const circleNameMaxLength = 40;
export const circleDescriptionMaxLength = 500;
export const categoryNameMaxLength = 20;

export const circleNameSchema = z
  .string({ error: "validation:circle_name_required" })
  .trim()
  .min(1, "validation:circle_name_required")
  .max(circleNameMaxLength, "validation:circle_name_length")
  .regex(singleLinePattern, "validation:circle_name_chars");

/** A translation's name may stay empty: the page then shows the default language's. */
const optionalNameSchema = z
  .string({ error: "validation:invalid_value" })
  .trim()
  .max(circleNameMaxLength, "validation:circle_name_length")
  .regex(singleLinePattern, "validation:circle_name_chars");

export const circleDescriptionSchema = z
  .string({ error: "validation:invalid_value" })
  .trim()
  .max(circleDescriptionMaxLength, "validation:circle_description_length");

export const visibilitySchema = z.enum(circleVisibilityValues, { error: "validation:circle_visibility_invalid" });
export const languageSchema = z.enum(locales, { error: "validation:circle_language_invalid" });
export const languagesSchema = z
  .array(languageSchema, { error: "validation:circle_languages_required" })
  .min(1, "validation:circle_languages_required")
  .max(locales.length, "validation:circle_language_invalid")
  .transform((languages) => [...new Set(languages)]);

const idSchema = idValueSchema();

const defaultLanguageListed = {
  path: ["languages"],
  message: "validation:circle_languages_default",
  when: ({ value }: { value: unknown }) => {
    const typed = value as { languages?: unknown; default_language?: unknown };
    return Array.isArray(typed.languages) && typeof typed.default_language === "string";
  },
};

/** POST /api/circles/ and the create forms. The name and description serve every listed language until translated. */
export const createCircleSchema = z
  .strictObject({
    name: circleNameSchema,
    description: circleDescriptionSchema.default(""),
    parent_id: idSchema.default(1),
    visibility: visibilitySchema.default("public"),
    default_language: languageSchema.default("zh-CN"),
    languages: languagesSchema.optional(),
  })
  .refine((value) => !value.languages || value.languages.includes(value.default_language), defaultLanguageListed)
  .transform((value) => ({ ...value, languages: value.languages ?? [value.default_language] }));
export type CreateCircleInput = z.output<typeof createCircleSchema>;

/**
 * PATCH /api/circles/{id}/ and the settings pages. `name`/`description` are the default language's;
 * `name_zh`, `name_en`, `description_zh`, `description_en` set one language's (and win over them).
 */
export const updateCircleSchema = z
  .strictObject({
    name: circleNameSchema.optional(),
    description: circleDescriptionSchema.optional(),
    name_zh: optionalNameSchema.optional(),
    name_en: optionalNameSchema.optional(),
    description_zh: circleDescriptionSchema.optional(),
    description_en: circleDescriptionSchema.optional(),
    visibility: visibilitySchema.optional(),
    parent_id: idSchema.optional(),
    default_language: languageSchema.optional(),
    languages: languagesSchema.optional(),
    /** Only `null` (remove the logo): a new logo is uploaded as a file. */
    logo: z.null({ error: "validation:invalid_value" }).optional(),
  })
  .refine(
    (value) => !value.languages || !value.default_language || value.languages.includes(value.default_language),
    defaultLanguageListed,
  );
export type UpdateCircleInput = z.output<typeof updateCircleSchema>;

export const setRoleSchema = z.strictObject({ role: z.enum(assignableRoles, { error: "validation:circle_role_invalid" }) });

/** Several members at once (the members page's "all at once"). */
export const setRolesSchema = z.strictObject({
  user_ids: z
    .array(idSchema, { error: "validation:circle_members_required" })
    .min(1, "validation:circle_members_required")
    .max(100, "validation:invalid_value"),
  role: z.enum(assignableRoles, { error: "validation:circle_role_invalid" }),
});

export const memberListQuerySchema = z.strictObject({
  q: z.string().trim().max(50).optional(),
  role: z.enum(circleRoleValues).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
});

/** Spec section 5: letters, digits and whitespace only, in any script. */
export const categoryNameSchema = z
  .string({ error: "validation:category_name_required" })
  .trim()
  .min(1, "validation:category_name_required")
  .max(categoryNameMaxLength, "validation:category_name_length")
  .regex(/^[\p{L}\p{N}\s]+$/u, "validation:category_name_chars")
  .transform((name) => name.replace(/\s+/g, " "));

export const createCategorySchema = z.strictObject({
  name: categoryNameSchema,
  /** A subclass names its category. */
  parent_id: idSchema.nullable().default(null),
});

export const updateCategorySchema = z.strictObject({
  name: categoryNameSchema.optional(),
  /** 0-based place among its siblings. */
  position: z
    .number({ error: "validation:invalid_value" })
    .int("validation:invalid_value")
    .min(0, "validation:invalid_value")
    .max(10_000, "validation:invalid_value")
    .optional(),
});

/** Form fields → the shapes above (browser and server alike). */
export function textField(form: FormData, name: string): string | undefined {
  const value = form.get(name);
  return typeof value === "string" ? value : undefined;
}

export function createCircleInputFromForm(form: FormData) {
  const languages = form.getAll("languages").filter((value): value is string => typeof value === "string");
  const parent = textField(form, "parent_id");
  return {
    name: textField(form, "name"),
    description: textField(form, "description") ?? "",
    parent_id: parent && /^\d{1,10}$/.test(parent) ? Number(parent) : undefined,
    visibility: textField(form, "visibility"),
    default_language: textField(form, "default_language"),
    languages,
  };
}

/** The language-specific name field of a form or a PATCH. */
export function nameField(language: Locale): "name_zh" | "name_en" {
  return language === "en" ? "name_en" : "name_zh";
}

export function descriptionField(language: Locale): "description_zh" | "description_en" {
  return language === "en" ? "description_en" : "description_zh";
}
