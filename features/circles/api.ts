import type { FastifyInstance } from "fastify";
import { circlesTag } from "../../server/lib/cache-tags.ts";
import { jsonRoute } from "../../server/lib/operation.ts";
import { joinCircleOperation, leaveCircleOperation } from "./operations.ts";
import { circleCategoriesApi } from "./categories-api.ts";
import {
  circlePageOperation,
  circleTreeOperation,
  createCircleOperation,
  deleteCircleOperation,
  listMembersOperation,
  listPinsOperation,
  pinOperation,
  removeMemberOperation,
  setMemberRoleOperation,
  setMemberRolesOperation,
  unpinOperation,
  updateCircleOperation,
} from "./manage-operations.ts";

/**
 * The circles API: every route serves an operation (features/circles/manage-operations.ts,
 * operations.ts, category-operations.ts). Visitors get 401 on writes before anything is looked up.
 */
export async function circlesApi(app: FastifyInstance): Promise<void> {
  const tags = [circlesTag];
  const circle = "/api/circles/:id/";

  jsonRoute(app, "GET", "/api/circles/", circleTreeOperation, {
    tags,
    summary: "The circle tree the viewer may see, with counts; `q` filters by name in either language",
  });
  jsonRoute(app, "POST", "/api/circles/", createCircleOperation, {
    status: 201,
    cache: "none",
    tags,
    summary: "Create a circle (under the global village unless parent_id names another)",
  });
  jsonRoute(app, "GET", circle, circlePageOperation, {
    tags,
    summary: "A circle: texts, breadcrumb, sub-circles, counts, founder and administrators",
  });
  jsonRoute(app, "PATCH", circle, updateCircleOperation, { tags, summary: "Change a circle's settings (administrators and above)" });
  jsonRoute(app, "DELETE", circle, deleteCircleOperation, {
    status: 204,
    cache: "none",
    tags,
    summary: "Delete an empty circle (super administrators and the founder)",
  });

  jsonRoute(app, "POST", `${circle}join/`, joinCircleOperation, { tags, summary: "Join a circle" });
  jsonRoute(app, "POST", `${circle}leave/`, leaveCircleOperation, { tags, summary: "Leave a circle (the founder cannot)" });

  jsonRoute(app, "GET", `${circle}members/`, listMembersOperation, {
    tags,
    summary: "Members, highest role first; `q` searches username and nickname; 20 a page",
  });
  jsonRoute(app, "PUT", `${circle}members/:user_id/role/`, setMemberRoleOperation, {
    tags,
    summary: "Give a member a role (never founder; never above one's own)",
  });
  jsonRoute(app, "PUT", `${circle}members/roles/`, setMemberRolesOperation, {
    tags,
    summary: "Give several members one role at once (all or none)",
  });
  jsonRoute(app, "DELETE", `${circle}members/:user_id/`, removeMemberOperation, {
    status: 204,
    cache: "none",
    tags,
    summary: "Remove a member below one's own rank",
  });

  jsonRoute(app, "GET", `${circle}pins/`, listPinsOperation, {
    tags,
    summary: "The circle's pinned items as the viewer may see them, the latest pinned first",
  });
  jsonRoute(app, "PUT", `${circle}pins/:type/:subject_id/`, pinOperation, {
    tags,
    summary: "Pin a writing or book of the circle to the top of its page (moderators and above; at most 5)",
  });
  jsonRoute(app, "DELETE", `${circle}pins/:type/:subject_id/`, unpinOperation, {
    status: 204,
    cache: "none",
    tags,
    summary: "Unpin an item (moderators and above)",
  });

  await app.register(circleCategoriesApi);
}
