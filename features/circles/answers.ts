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
const counts = z.object({
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

export const circleNodeAnswer: z.ZodType<CircleNodeAnswer> = z.object({
  ...circleView,
  role: z.string().nullable(),
  counts,
  get children() {
    return z.array(circleNodeAnswer);
  },
});

export const circleTreeAnswer = z.object({ circles: z.array(circleNodeAnswer), can: z.object({ create: z.boolean() }) });

export const circlePageAnswer = z.object({
  circle: z.object(circleView),
  ancestors: z.array(z.object(circleView)),
  children: z.array(z.object({ ...circleView, counts })),
  counts,
  staff: z.array(
    z.object({
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

export const createdCircleAnswer = z.object({ id: z.number(), url: z.string() });

export const memberListAnswer = z.object({
  members: z.array(
    z.object({
      user_id: z.number(),
      username: z.string(),
      nickname: z.string(),
      avatar: z.string().nullable(),
      role: z.string(),
      joined_at: z.string(),
      can: z.object({ set_roles: z.array(z.string()), remove: z.boolean() }),
    }),
  ),
  total: z.number(),
  page: z.number(),
  page_size: z.number(),
  can: z.object({ manage_members: z.boolean() }),
});

export const roleAnswer = z.object({ user_id: z.number(), role: z.string() });
export const rolesAnswer = z.object({ user_ids: z.array(z.number()), role: z.string() });

/** A writing category with its subclasses (one level). */
const categoryFields = { id: z.number(), name: z.string(), parent_id: z.number().nullable(), position: z.number() };
export const categoryAnswer = z.object({
  ...categoryFields,
  children: z.array(z.object({ ...categoryFields, children: z.array(z.never()) })),
});
export type CategoryAnswer = z.infer<typeof categoryAnswer>;
export const categoryListAnswer = z.object({ categories: z.array(categoryAnswer), can: z.object({ manage_categories: z.boolean() }) });
