import { z } from "zod";
import { idSchema } from "../../common/id.ts";
import { defineOperation, noContent } from "../../server/lib/operation.ts";
import { categoryAnswer, categoryListAnswer, type CategoryAnswer } from "./answers.ts";
import { requireCircle } from "./access.server.ts";
import { can } from "./policy.ts";
import { snakeKeys } from "./presenter.ts";
import { createCategorySchema, updateCategorySchema } from "./schema.ts";
import { createCategory, deleteCategory, listCategories, updateCategory } from "./categories.ts";

/* Writing categories of a circle: readers of its content list them; administrators and above change them (the API and the circle's category settings page). */

const circleParams = z.object({ id: idSchema });
const categoryParams = z.object({ id: idSchema, category_id: idSchema });

export const listCategoriesOperation = defineOperation({
  name: "listCircleCategories",
  input: { params: circleParams },
  viewer: "optional",
  run: async (services, viewer, { params }) => {
    const access = await requireCircle(services.db, viewer, params.id, "read_content");
    return {
      categories: snakeKeys(await listCategories(services.db, params.id)) as CategoryAnswer[],
      can: { manage_categories: can(viewer, "manage_categories", access) },
    };
  },
  present: (answer) => answer,
  response: categoryListAnswer,
  failures: ["not_found", "forbidden"],
});

export const createCategoryOperation = defineOperation({
  name: "createCircleCategory",
  input: { params: circleParams, body: createCategorySchema },
  viewer: "signed-in",
  run: (services, viewer, { params, body }) => createCategory({ db: services.db }, viewer, params.id, body),
  present: (category) => ({ id: category.id, category: snakeKeys(category) as CategoryAnswer }),
  response: z.strictObject({ id: z.number(), category: categoryAnswer }),
  failures: ["not_found", "forbidden", "category_name_taken", "category_parent_invalid"],
});

export const updateCategoryOperation = defineOperation({
  name: "updateCircleCategory",
  input: { params: categoryParams, body: updateCategorySchema },
  viewer: "signed-in",
  run: (services, viewer, { params, body }) => updateCategory({ db: services.db }, viewer, params.id, params.category_id, body),
  present: (category) => ({ category: snakeKeys(category) as CategoryAnswer }),
  response: z.strictObject({ category: categoryAnswer }),
  failures: ["not_found", "forbidden", "category_name_taken", "category_parent_invalid"],
});

export const deleteCategoryOperation = defineOperation({
  name: "deleteCircleCategory",
  input: { params: categoryParams },
  viewer: "signed-in",
  run: (services, viewer, { params }) => deleteCategory({ db: services.db }, viewer, params.id, params.category_id),
  present: () => null,
  response: noContent,
  failures: ["not_found", "forbidden", "category_in_use"],
});
