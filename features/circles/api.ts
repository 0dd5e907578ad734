import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { AppError } from "../../common/app-error.ts";
import type { Viewer } from "../accounts/viewer.ts";
import { loadCircleAccess, requireCircle } from "./access.server.ts";
import { can } from "./policy.ts";
import { snakeKeys } from "./presenter.ts";
import { createCircleSchema, memberListQuerySchema, setRoleSchema, setRolesSchema, updateCircleSchema } from "./schema.ts";
import { getCirclePage, listCircleTree } from "./service.ts";
import { createCircle, deleteCircle, rootCircleId, updateCircle } from "./manage.ts";
import { listMembers, removeMember, setMemberRoles } from "./membership.ts";
import { joinCircleOperation, leaveCircleOperation } from "./operations.ts";
import { circleCategoriesApi } from "./categories-api.ts";
import { listPins, pinnableTypeSchema, pinSubject, unpinSubject } from "./pins.ts";
import { circlesTag } from "../../server/lib/cache-tags.ts";
import { jsonRoute, noContent, personal } from "../../server/lib/operation.ts";
import {
  circlePageAnswer,
  circleTreeAnswer,
  type CircleNodeAnswer,
  createdCircleAnswer,
  memberListAnswer,
  roleAnswer,
  rolesAnswer,
} from "./answers.ts";
import { idSchema } from "../../common/id.ts";

const circleParams = z.object({ id: idSchema });
const memberParams = z.object({ id: idSchema, user_id: idSchema });
const pinParams = z.object({ id: idSchema, type: pinnableTypeSchema, subject_id: idSchema });

/**
 * The circles API. Every write asks the policy on the server (through `requireCircle` in the
 * services); an id from the client never grants anything. A circle the viewer may not see answers
 * 404 whether or not it exists; visitors get 401 on writes before anything is looked up.
 * Responses carry the viewer's allowed actions (`can`).
 */
const pinsAnswer = z.strictObject({
  pins: z.array(
    z.strictObject({ type: pinnableTypeSchema, id: z.number().int(), title: z.string(), path: z.string(), pinned_at: z.string() }),
  ),
});

function presentPins(pins: Awaited<ReturnType<typeof listPins>>) {
  return pins.map((pin) => ({ type: pin.type, id: pin.id, title: pin.title, path: pin.path, pinned_at: pin.pinnedAt }));
}

export async function circlesApi(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = [circlesTag];

  const pageOf = async (viewer: Viewer | null, id: number, locale: Parameters<typeof getCirclePage>[3]) => {
    const page = await getCirclePage(app.db, viewer, id, locale);
    if (!page) throw new AppError("not_found");
    return snakeKeys(page) as z.infer<typeof circlePageAnswer>;
  };

  api.get(
    "/api/circles/",
    {
      schema: {
        tags,
        summary: "The circle tree the viewer may see, with counts; `q` filters by name in either language",
        querystring: z.object({ q: z.string().max(100).optional() }),
        response: { 200: circleTreeAnswer },
      },
    },
    async (request, reply) => {
      const viewer = await request.viewer();
      const root = await loadCircleAccess(app.db, viewer, rootCircleId);
      personal(reply);
      return {
        circles: snakeKeys(await listCircleTree(app.db, viewer, request.locale, { query: request.query.q })) as CircleNodeAnswer[],
        can: { create: root !== null && can(viewer, "create_subcircle", root) },
      };
    },
  );

  api.post(
    "/api/circles/",
    {
      schema: {
        tags,
        summary: "Create a circle (under the global village unless parent_id names another)",
        body: createCircleSchema,
        response: { 201: createdCircleAnswer },
      },
    },
    async (request, reply) => {
      const viewer = await request.viewer();
      if (!viewer) throw new AppError("not_authenticated");
      const { id } = await createCircle({ db: app.db }, viewer, request.body);
      return reply.status(201).send({ id, url: `/circles/${id}` });
    },
  );

  api.get(
    "/api/circles/:id/",
    {
      schema: {
        tags,
        summary: "A circle: texts, breadcrumb, sub-circles, counts, founder and administrators",
        params: circleParams,
        response: { 200: circlePageAnswer },
      },
    },
    async (request, reply) => {
      personal(reply);
      return pageOf(await request.viewer(), request.params.id, request.locale);
    },
  );

  api.patch(
    "/api/circles/:id/",
    {
      schema: {
        tags,
        summary: "Change a circle's settings (administrators and above)",
        params: circleParams,
        body: updateCircleSchema,
        response: { 200: circlePageAnswer },
      },
    },
    async (request, reply) => {
      const viewer = await request.viewer();
      if (!viewer) throw new AppError("not_authenticated");
      await updateCircle({ db: app.db }, viewer, request.params.id, request.body);
      personal(reply);
      return pageOf(viewer, request.params.id, request.locale);
    },
  );

  api.delete(
    "/api/circles/:id/",
    {
      schema: {
        tags,
        summary: "Delete an empty circle (super administrators and the founder)",
        params: circleParams,
        response: { 204: noContent },
      },
    },
    async (request, reply) => {
      const viewer = await request.viewer();
      if (!viewer) throw new AppError("not_authenticated");
      await deleteCircle({ db: app.db }, viewer, request.params.id);
      return reply.status(204).send(null);
    },
  );

  jsonRoute(app, "POST", "/api/circles/:id/join/", joinCircleOperation, { tags, summary: "Join a circle" });
  jsonRoute(app, "POST", "/api/circles/:id/leave/", leaveCircleOperation, { tags, summary: "Leave a circle (the founder cannot)" });

  api.get(
    "/api/circles/:id/members/",
    {
      schema: {
        tags,
        summary: "Members, highest role first; `q` searches username and nickname; 20 a page",
        params: circleParams,
        querystring: memberListQuerySchema,
        response: { 200: memberListAnswer },
      },
    },
    async (request, reply) => {
      const viewer = await request.viewer();
      const access = await requireCircle(app.db, viewer, request.params.id, "read_content");
      personal(reply);
      const list = await listMembers(app.db, viewer, access, request.query);
      return snakeKeys({ ...list, can: { manageMembers: can(viewer, "manage_members", access) } }) as z.infer<typeof memberListAnswer>;
    },
  );

  api.put(
    "/api/circles/:id/members/:user_id/role/",
    {
      schema: {
        tags,
        summary: "Give a member a role (never founder; never above one's own)",
        params: memberParams,
        body: setRoleSchema,
        response: { 200: roleAnswer },
      },
    },
    async (request, reply) => {
      const viewer = await request.viewer();
      if (!viewer) throw new AppError("not_authenticated");
      await setMemberRoles({ db: app.db }, viewer, request.params.id, [request.params.user_id], request.body.role);
      personal(reply);
      return { user_id: request.params.user_id, role: request.body.role };
    },
  );

  api.put(
    "/api/circles/:id/members/roles/",
    {
      schema: {
        tags,
        summary: "Give several members one role at once (all or none)",
        params: circleParams,
        body: setRolesSchema,
        response: { 200: rolesAnswer },
      },
    },
    async (request, reply) => {
      const viewer = await request.viewer();
      if (!viewer) throw new AppError("not_authenticated");
      await setMemberRoles({ db: app.db }, viewer, request.params.id, request.body.user_ids, request.body.role);
      personal(reply);
      return { user_ids: request.body.user_ids, role: request.body.role };
    },
  );

  api.delete(
    "/api/circles/:id/members/:user_id/",
    { schema: { tags, summary: "Remove a member below one's own rank", params: memberParams, response: { 204: noContent } } },
    async (request, reply) => {
      const viewer = await request.viewer();
      if (!viewer) throw new AppError("not_authenticated");
      await removeMember({ db: app.db }, viewer, request.params.id, request.params.user_id);
      return reply.status(204).send(null);
    },
  );

  api.get(
    "/api/circles/:id/pins/",
    {
      schema: {
        tags,
        summary: "The circle's pinned items as the viewer may see them, the latest pinned first",
        params: circleParams,
        response: { 200: pinsAnswer },
      },
    },
    async (request, reply) => {
      const viewer = await request.viewer();
      await requireCircle(app.db, viewer, request.params.id, "read_content");
      personal(reply);
      return { pins: presentPins(await listPins(app.db, viewer, request.params.id)) };
    },
  );

  api.put(
    "/api/circles/:id/pins/:type/:subject_id/",
    {
      schema: {
        tags,
        summary: "Pin a writing or book of the circle to the top of its page (moderators and above; at most 5)",
        params: pinParams,
        body: z.strictObject({}).nullish(),
        response: { 200: pinsAnswer },
      },
    },
    async (request, reply) => {
      const viewer = await request.viewer();
      if (!viewer) throw new AppError("not_authenticated");
      await pinSubject({ db: app.db }, viewer, request.params.id, request.params.type, request.params.subject_id);
      personal(reply);
      return { pins: presentPins(await listPins(app.db, viewer, request.params.id)) };
    },
  );

  api.delete(
    "/api/circles/:id/pins/:type/:subject_id/",
    { schema: { tags, summary: "Unpin an item (moderators and above)", params: pinParams, response: { 204: noContent } } },
    async (request, reply) => {
      const viewer = await request.viewer();
      if (!viewer) throw new AppError("not_authenticated");
      await unpinSubject({ db: app.db }, viewer, request.params.id, request.params.type, request.params.subject_id);
      return reply.status(204).send(null);
    },
  );

  await app.register(circleCategoriesApi);
}
