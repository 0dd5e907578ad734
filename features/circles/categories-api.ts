import type { FastifyInstance } from "fastify";
import { jsonRoute } from "../../server/lib/operation.ts";
import { circlesTag } from "../../server/lib/cache-tags.ts";
import {
  createCategoryOperation,
  deleteCategoryOperation,
  listCategoriesOperation,
  updateCategoryOperation,
} from "./category-operations.ts";

/** Writing categories of a circle: readers of its content list them; administrators and above change them. */
export async function circleCategoriesApi(app: FastifyInstance): Promise<void> {
  const tags = [circlesTag];
  const path = "/api/circles/:id/categories/";
  jsonRoute(app, "GET", path, listCategoriesOperation, { tags, summary: "A circle's writing categories with their subclasses" });
  jsonRoute(app, "POST", path, createCategoryOperation, {
    status: 201,
    cache: "none",
    tags,
    summary: "Add a category, or with parent_id a subclass",
  });
  jsonRoute(app, "PATCH", `${path}:category_id/`, updateCategoryOperation, {
    cache: "none",
    tags,
    summary: "Rename a category or move it among its siblings",
  });
  jsonRoute(app, "DELETE", `${path}:category_id/`, deleteCategoryOperation, {
    status: 204,
    cache: "none",
    tags,
    summary: "Delete a category nothing uses",
  });
}
