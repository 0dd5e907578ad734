import { z } from "zod";

/* The circles API's answers (OpenAPI and the response serializer): the presented rows through `snakeKeys`. */

const circleView = {
  id: z.number(),
  parent_id: z.number().nullable(),
  name: z.string(),
  description: z.string(),
  logo: z.string().nullable(),
  visibility: z.string(),
  default_language: z.string(),
  languages: z.array(z.string()),
  created_at: z.string(),
};
const counts = z.strictObject({
  members: z.number(),
  subcircles: z.number(),
  /** Null when the viewer may not read the circle's content. */
  content: z.record(z.string(), z.number()).nullable(),
});

export interface CircleNodeAnswer {
  id: number;
  children: CircleNodeAnswer[];
  [key: string]: unknown;
}

export const circleNodeAnswer: z.ZodType<CircleNodeAnswer> = z.strictObject({
  ...circleView,
  role: z.string().nullable(),
  counts,
  get children() {
    return z.array(circleNodeAnswer);
  },
});

export const circleTreeAnswer = z.strictObject({ circles: z.array(circleNodeAnswer), can: z.strictObject({ create: z.boolean() }) });

export const circlePageAnswer = z.strictObject({
  circle: z.strictObject(circleView),
  ancestors: z.array(z.strictObject(circleView)),
  children: z.array(z.strictObject({ ...circleView, counts })),
  counts,
  staff: z.array(
    z.strictObject({
      user_id: z.number(),
      username: z.string(),
      nickname: z.string(),
      avatar: z.string().nullable(),
      role: z.string(),
      joined_at: z.string(),
    }),
  ),
  role: z.string().nullable(),
  can: z.record(z.string(), z.boolean()),
});

export const createdCircleAnswer = z.strictObject({ id: z.number(), url: z.string() });

export const memberListAnswer = z.strictObject({
  members: z.array(
    z.strictObject({
      user_id: z.number(),
      username: z.string(),
      nickname: z.string(),
      avatar: z.string().nullable(),
      role: z.string(),
      joined_at: z.string(),
      can: z.strictObject({ set_roles: z.array(z.string()), remove: z.boolean() }),
    }),
  ),
  total: z.number(),
  page: z.number(),
  page_size: z.number(),
  can: z.strictObject({ manage_members: z.boolean() }),
});

export const roleAnswer = z.strictObject({ user_id: z.number(), role: z.string() });
export const rolesAnswer = z.strictObject({ user_ids: z.array(z.number()), role: z.string() });

/** A writing category with its subclasses (one level). */
const categoryFields = { id: z.number(), name: z.string(), parent_id: z.number().nullable(), position: z.number() };
export const categoryAnswer = z.strictObject({
  ...categoryFields,
  children: z.array(z.strictObject({ ...categoryFields, children: z.array(z.never()) })),
});
export type CategoryAnswer = z.infer<typeof categoryAnswer>;
export const categoryListAnswer = z.strictObject({
  categories: z.array(categoryAnswer),
  can: z.strictObject({ manage_categories: z.boolean() }),
});
