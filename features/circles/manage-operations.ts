import { z } from "zod";
import { AppError } from "../../common/app-error.ts";
import { idSchema } from "../../common/id.ts";
import { defineOperation, noContent } from "../../server/lib/operation.ts";
import type { Viewer } from "../accounts/viewer.ts";
import type { Database } from "../../server/db/client.ts";
import type { Locale } from "../../common/locale.ts";
import { loadCircleAccess, requireCircle } from "./access.server.ts";
import { can } from "./policy.ts";
import { snakeKeys } from "./presenter.ts";
import { createCircleSchema, memberListQuerySchema, setRoleSchema, setRolesSchema, updateCircleSchema } from "./schema.ts";
import { getCirclePage, listCircleTree, type CircleNode } from "./service.ts";
import { createCircle, deleteCircle, rootCircleId, updateCircle } from "./manage.ts";
import { listMembers, removeAllAdministrators, removeMember, setMemberRoles } from "./membership.ts";
import { listPins, pinnableTypeSchema, pinSubject, unpinSubject } from "./pins.ts";
import {
  circlePageAnswer,
  circleTreeAnswer,
  type CircleNodeAnswer,
  createdCircleAnswer,
  memberListAnswer,
  roleAnswer,
  rolesAnswer,
} from "./answers.ts";

/*
 * The circle tree, a circle's page and settings, its members and its pins: the API
 * (features/circles/api.ts) and the circle pages' forms (app/routes/circle-*.tsx). Every write asks
 * the policy on the server (through `requireCircle` in the services); a circle the viewer may not
 * see is a 404 whether or not it exists. Answers carry the viewer's allowed actions (`can`).
 */

const circleParams = z.object({ id: idSchema });

/** The tree as the API answers it: the list page's Join flag stays on the page. */
function withoutJoinable(nodes: CircleNode[]): Omit<CircleNode, "joinable" | "children">[] {
  return nodes.map(({ joinable: _joinable, children, ...node }) => ({ ...node, children: withoutJoinable(children) }));
}
const memberParams = z.object({ id: idSchema, user_id: idSchema });
const pinParams = z.object({ id: idSchema, type: pinnableTypeSchema, subject_id: idSchema });

/** A circle's page as the viewer sees it, or `not_found`. */
async function pageOf(db: Database, viewer: Viewer | null, id: number, locale: Locale) {
  const page = await getCirclePage(db, viewer, id, locale);
  if (!page) throw new AppError("not_found");
  return snakeKeys(page) as z.infer<typeof circlePageAnswer>;
}

const pinsAnswer = z.strictObject({
  pins: z.array(
    z.strictObject({ type: pinnableTypeSchema, id: z.number().int(), title: z.string(), path: z.string(), pinned_at: z.string() }),
  ),
});

function presentPins(pins: Awaited<ReturnType<typeof listPins>>): z.infer<typeof pinsAnswer> {
  return { pins: pins.map((pin) => ({ type: pin.type, id: pin.id, title: pin.title, path: pin.path, pinned_at: pin.pinnedAt })) };
}

export const circleTreeOperation = defineOperation({
  name: "listCircles",
  input: { query: z.object({ q: z.string().max(100).optional() }) },
  viewer: "optional",
  run: async (services, viewer, { query }) => {
    const root = await loadCircleAccess(services.db, viewer, rootCircleId);
    return {
      circles: snakeKeys(
        withoutJoinable(await listCircleTree(services.db, viewer, services.locale, { query: query.q })),
      ) as CircleNodeAnswer[],
      can: { create: root !== null && can(viewer, "create_subcircle", root) },
    };
  },
  present: (answer) => answer,
  response: circleTreeAnswer,
  failures: [],
});

export const createCircleOperation = defineOperation({
  name: "createCircle",
  input: { body: createCircleSchema },
  viewer: "signed-in",
  // A page's form may carry the logo (stored before the circle is made); the API sets it afterwards.
  run: (services, viewer, { body }) => createCircle({ db: services.db }, viewer, body, { logo: services.uploaded?.logo }),
  present: ({ id }) => ({ id, url: `/circles/${id}` }),
  response: createdCircleAnswer,
  failures: ["not_found", "forbidden", "circle_name_taken", "circle_parent_invalid"],
});

export const circlePageOperation = defineOperation({
  name: "getCircle",
  input: { params: circleParams },
  viewer: "optional",
  run: (services, viewer, { params }) => pageOf(services.db, viewer, params.id, services.locale),
  present: (page) => page,
  response: circlePageAnswer,
  failures: ["not_found"],
});

export const updateCircleOperation = defineOperation({
  name: "updateCircle",
  input: { params: circleParams, body: updateCircleSchema },
  viewer: "signed-in",
  run: async (services, viewer, { params, body }) => {
    // A page's form may carry a new logo (stored before the change is made).
    await updateCircle({ db: services.db }, viewer, params.id, body, { logo: services.uploaded?.logo });
    return pageOf(services.db, viewer, params.id, services.locale);
  },
  present: (page) => page,
  response: circlePageAnswer,
  failures: ["not_found", "forbidden", "circle_name_taken", "circle_parent_invalid", "circle_root_fixed"],
});

export const deleteCircleOperation = defineOperation({
  name: "deleteCircle",
  input: { params: circleParams },
  viewer: "signed-in",
  run: (services, viewer, { params }) => deleteCircle({ db: services.db }, viewer, params.id),
  present: () => null,
  response: noContent,
  failures: ["not_found", "forbidden", "circle_root_fixed", "circle_has_subcircles", "circle_has_content"],
});

export const listMembersOperation = defineOperation({
  name: "listCircleMembers",
  input: { params: circleParams, query: memberListQuerySchema },
  viewer: "optional",
  run: async (services, viewer, { params, query }) => {
    const access = await requireCircle(services.db, viewer, params.id, "read_content");
    const list = await listMembers(services.db, viewer, access, query);
    return snakeKeys({ ...list, can: { manageMembers: can(viewer, "manage_members", access) } }) as z.infer<typeof memberListAnswer>;
  },
  present: (list) => list,
  response: memberListAnswer,
  failures: ["not_found", "forbidden"],
});

export const setMemberRoleOperation = defineOperation({
  name: "setCircleMemberRole",
  input: { params: memberParams, body: setRoleSchema },
  viewer: "signed-in",
  run: async (services, viewer, { params, body }) => {
    await setMemberRoles({ db: services.db }, viewer, params.id, [params.user_id], body.role);
    return { user_id: params.user_id, role: body.role };
  },
  present: (answer) => answer,
  response: roleAnswer,
  failures: ["not_found", "forbidden", "not_a_member"],
});

export const setMemberRolesOperation = defineOperation({
  name: "setCircleMemberRoles",
  input: { params: circleParams, body: setRolesSchema },
  viewer: "signed-in",
  run: async (services, viewer, { params, body }) => {
    await setMemberRoles({ db: services.db }, viewer, params.id, body.user_ids, body.role);
    return { user_ids: body.user_ids, role: body.role };
  },
  present: (answer) => answer,
  response: rolesAnswer,
  failures: ["not_found", "forbidden", "not_a_member"],
});

export const removeMemberOperation = defineOperation({
  name: "removeCircleMember",
  input: { params: memberParams },
  viewer: "signed-in",
  run: (services, viewer, { params }) => removeMember({ db: services.db }, viewer, params.id, params.user_id),
  present: () => null,
  response: noContent,
  failures: ["not_found", "forbidden", "not_a_member"],
});

/** Every administrator the viewer outranks becomes a member again (the members page's "remove all"): how many. */
export const removeAllAdministratorsOperation = defineOperation({
  name: "removeAllCircleAdministrators",
  input: { params: circleParams },
  viewer: "signed-in",
  run: (services, viewer, { params }) => removeAllAdministrators({ db: services.db }, viewer, params.id),
  present: (count) => ({ removed: count }),
  response: z.strictObject({ removed: z.number() }),
  failures: ["not_found", "forbidden"],
});

export const listPinsOperation = defineOperation({
  name: "listCirclePins",
  input: { params: circleParams },
  viewer: "optional",
  run: async (services, viewer, { params }) => {
    await requireCircle(services.db, viewer, params.id, "read_content");
    return listPins(services.db, viewer, params.id);
  },
  present: presentPins,
  response: pinsAnswer,
  failures: ["not_found", "forbidden"],
});

export const pinOperation = defineOperation({
  name: "pinToCircle",
  input: { params: pinParams, body: z.strictObject({}).nullish() },
  viewer: "signed-in",
  run: async (services, viewer, { params }) => {
    await pinSubject({ db: services.db }, viewer, params.id, params.type, params.subject_id);
    return listPins(services.db, viewer, params.id);
  },
  present: presentPins,
  response: pinsAnswer,
  failures: ["not_found", "forbidden", "too_many_pins"],
});

export const unpinOperation = defineOperation({
  name: "unpinFromCircle",
  input: { params: pinParams },
  viewer: "signed-in",
  run: (services, viewer, { params }) => unpinSubject({ db: services.db }, viewer, params.id, params.type, params.subject_id),
  present: () => null,
  response: noContent,
  failures: ["not_found", "forbidden"],
});
