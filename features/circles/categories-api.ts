import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { idSchema } from "../../common/id.ts";
import { noContent } from "../../server/lib/operation.ts";
import { categoryAnswer, categoryListAnswer, type CategoryAnswer } from "./answers.ts";
import { AppError } from "../../common/app-error.ts";
import { requireCircle } from "./access.server.ts";
import { can } from "./policy.ts";
import { snakeKeys } from "./presenter.ts";
import { createCategorySchema, updateCategorySchema } from "./schema.ts";
import { createCategory, deleteCategory, listCategories, updateCategory } from "./categories.ts";
import { circlesTag } from "../../server/lib/cache-tags.ts";

const circleParams = z.object({ id: idSchema });
const categoryParams = z.object({ id: idSchema, category_id: idSchema });

/** Writing categories of a circle: readers of its content list them; administrators and above change them. */
export async function circleCategoriesApi(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = [circlesTag];

  api.get(
    "/api/circles/:id/categories/",
    {
      schema: {
        tags,
        summary: "A circle's writing categories with their subclasses",
        params: circleParams,
        response: { 200: categoryListAnswer },
      },
    },
    async (request, reply) => {
      const viewer = await request.viewer();
      const access = await requireCircle(app.db, viewer, request.params.id, "read_content");
      reply.header("cache-control", "private, no-store");
      return {
        categories: snakeKeys(await listCategories(app.db, request.params.id)) as CategoryAnswer[],
        can: { manage_categories: can(viewer, "manage_categories", access) },
      };
    },
  );

  api.post(
    "/api/circles/:id/categories/",
    {
      schema: {
        tags,
        summary: "Add a category, or with parent_id a subclass",
        params: circleParams,
        body: createCategorySchema,
        response: { 201: z.strictObject({ id: z.number(), category: categoryAnswer }) },
      },
    },
    async (request, reply) => {
      const viewer = await request.viewer();
      if (!viewer) throw new AppError("not_authenticated");
      const category = await createCategory({ db: app.db }, viewer, request.params.id, request.body);
      return reply.status(201).send({ id: category.id, category: snakeKeys(category) as CategoryAnswer });
    },
  );

  api.patch(
    "/api/circles/:id/categories/:category_id/",
    {
      schema: {
        tags,
        summary: "Rename a category or move it among its siblings",
        params: categoryParams,
        body: updateCategorySchema,
        response: { 200: z.strictObject({ category: categoryAnswer }) },
      },
    },
    async (request) => {
      const viewer = await request.viewer();
      if (!viewer) throw new AppError("not_authenticated");
      return {
        category: snakeKeys(
          await updateCategory({ db: app.db }, viewer, request.params.id, request.params.category_id, request.body),
        ) as CategoryAnswer,
      };
    },
  );

  api.delete(
    "/api/circles/:id/categories/:category_id/",
    { schema: { tags, summary: "Delete a category nothing uses", params: categoryParams, response: { 204: noContent } } },
    async (request, reply) => {
      const viewer = await request.viewer();
      if (!viewer) throw new AppError("not_authenticated");
      await deleteCategory({ db: app.db }, viewer, request.params.id, request.params.category_id);
      return reply.status(204).send(null);
    },
  );
}
