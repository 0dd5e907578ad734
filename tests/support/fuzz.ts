import { z } from "zod";

/**
 * Hostile input for the schema-driven API fuzz (server/api-fuzz.test.ts): what a black-box probe
 * sends, derived from each route's own zod schemas so every field of every route gets its share.
 */

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  minLength?: number;
  minimum?: number;
  exclusiveMinimum?: number;
  minItems?: number;
  format?: string;
  default?: unknown;
};

/** A route schema part (body, querystring, params) as JSON Schema, or undefined when it is none. */
export function jsonSchemaOf(schema: unknown): JsonSchema | undefined {
  if (!(schema instanceof z.ZodType)) return undefined;
  return z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonSchema;
}

/** A plausible valid value, so that one hostile field at a time reaches as deep as it can. */
export function sampleValue(schema: JsonSchema | undefined, depth = 0): unknown {
  if (!schema || depth > 6) return "fuzz";
  if (schema.default !== undefined) return schema.default;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  const options = schema.anyOf ?? schema.oneOf;
  if (options?.length) return sampleValue(options.find((option) => option.type !== "null") ?? options[0], depth + 1);
  if (schema.allOf?.length) return sampleValue(schema.allOf[0], depth + 1);
  const type = Array.isArray(schema.type) ? schema.type.find((item) => item !== "null") : schema.type;
  switch (type) {
    case "string":
      if (schema.format === "email") return "fuzz@example.com";
      if (schema.format === "uri") return "https://example.com/";
      return "fuzz".padEnd(schema.minLength ?? 0, "z");
    case "integer":
    case "number":
      return Math.max(1, schema.minimum ?? 1, (schema.exclusiveMinimum ?? 0) + 1);
    case "boolean":
      return false;
    case "array":
      return Array.from({ length: schema.minItems ?? 0 }, () => sampleValue(schema.items, depth + 1));
    case "object":
      return Object.fromEntries(
        Object.entries(schema.properties ?? {}).map(([name, property]) => [name, sampleValue(property, depth + 1)]),
      );
    default:
      return "fuzz";
  }
}

/**
 * Stands for JSON nested 5,000 deep (stack exhaustion) in a value: `toJsonPayload` writes it out,
 * since JSON.stringify itself would overflow on it.
 */
export const deeplyNested = "\u0001deeply-nested\u0001";
const deeplyNestedJson = `${'{"a":'.repeat(5_000)}"bottom"${"}".repeat(5_000)}`;

/** The request body as JSON text, with `deeplyNested` written out. */
export function toJsonPayload(value: unknown): string {
  return JSON.stringify(value).replaceAll(JSON.stringify(deeplyNested), deeplyNestedJson);
}

/** Values for one JSON field: unstorable text, wrong types, extreme numbers, deep and wide structures. */
export const hostileJsonValues: unknown[] = [
  "\ud800",
  "ab\udfff",
  "a\u0000b",
  { "\ud800": "key" },
  ["\u0000"],
  null,
  true,
  "",
  1e308,
  -1e308,
  2 ** 53 + 2,
  2 ** 31,
  -(2 ** 31) - 1,
  1.5,
  "99999999999999999999999",
  "-1",
  [],
  {},
  "x".repeat(20_000),
  deeplyNested,
];

/** Whole bodies that are not the object a route expects. */
export const hostileBodies: unknown[] = [null, [], "text", 0, true, { "\ud800": 1 }, { "a\u0000": 1 }, deeplyNested];

/** Path parameters, already percent-encoded as they appear in a URL. */
export const hostilePathValues: string[] = [
  "1%00",
  "a%00b",
  "%00",
  "%ED%A0%80",
  "%F0%9F%98%80",
  "0",
  "-1",
  "1.5",
  "99999999999999999999",
  "2147483648",
  "1e400",
  "NaN",
  "abc",
  "%20",
  "..%2F..%2Fetc",
  "a".repeat(3_000),
];

/** Query values, percent-encoded (a repeated name becomes an array). */
export const hostileQueryValues: string[] = [...hostilePathValues, "", "a%00b&{name}=second", "%E6%95%B0%E5%AD%A6"];
