import type { FastifySchemaCompiler } from "fastify";
import { validatorCompiler } from "fastify-type-provider-zod";
import { z } from "zod";

/**
 * fastify-type-provider-zod's validator, with one rule for every route: a body schema that does not
 * itself accept `null` gets only objects. Refinements (`.refine`, `when`) may then assume an object;
 * a `null`, an array or a number is a localized 400 for the whole form instead of a 500.
 */
export const edgeValidatorCompiler: FastifySchemaCompiler<z.ZodType> = (route) => {
  if (route.httpPart !== "body" || !(route.schema instanceof z.ZodType) || acceptsNull(route.schema)) return validatorCompiler(route);
  const objectsOnly = z
    .looseObject({}, { error: "validation:invalid_value" })
    .pipe(route.schema as z.ZodType<unknown, Record<string, unknown>>);
  return validatorCompiler({ ...route, schema: objectsOnly });
};

function acceptsNull(schema: z.ZodType): boolean {
  try {
    return schema.safeParse(null).success;
  } catch {
    // A refinement that reads the value's fields: it expects an object.
    return false;
  }
}
