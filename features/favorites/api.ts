import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { idSchema } from "../../common/id.ts";
import { noContent, personal, requireSignedIn } from "../../server/lib/operation.ts";
import { favoriteInputSchema, favoritesQuerySchema, favoriteUpdateSchema, folderCreateSchema, folderUpdateSchema } from "./schema.ts";
import {
  createFolder,
  deleteFolder,
  favorite,
  listFavorites,
  listFolders,
  removeFavoriteEntry,
  unfavorite,
  updateFavorite,
  updateFolder,
  type FavoriteItem,
  type FavoriteState,
  type FolderRow,
} from "./service.ts";

const subjectParams = z.object({ type: z.string().min(1).max(32), id: idSchema });
const folderParams = z.object({ id: idSchema });
const noBody = z.strictObject({}).nullish();

const stateAnswer = z.object({ favorited: z.boolean(), favorite_count: z.number().int(), folder_id: z.number().int().nullable() });
const folderAnswer = z.object({
  id: z.number().int(),
  name: z.string().nullable(),
  is_default: z.boolean(),
  is_public: z.boolean(),
  count: z.number().int(),
});
const itemAnswer = z.object({
  type: z.string(),
  id: z.number().int(),
  title: z.string(),
  url: z.string().nullable(),
  circle: z.object({ id: z.number().int(), name: z.string(), name_en: z.string().nullable() }).nullable(),
  folder_id: z.number().int(),
  note: z.string(),
  created_at: z.string(),
  readable: z.boolean(),
});

export function presentFavoriteState(state: FavoriteState): z.infer<typeof stateAnswer> {
  return { favorited: state.favorited, favorite_count: state.favoriteCount, folder_id: state.folderId };
}

export function presentFolder(folder: FolderRow): z.infer<typeof folderAnswer> {
  return { id: folder.id, name: folder.name, is_default: folder.isDefault, is_public: folder.isPublic, count: folder.count };
}

export function presentFavoriteItem(item: FavoriteItem): z.infer<typeof itemAnswer> {
  return {
    type: item.type,
    id: item.id,
    title: item.title,
    url: item.readable ? item.path : null,
    circle: item.circle ? { id: item.circle.id, name: item.circle.name, name_en: item.circle.nameEn } : null,
    folder_id: item.folderId,
    note: item.note,
    created_at: item.createdAt.toISOString(),
    readable: item.readable,
  };
}

/** Favourites (收藏) in folders, on any kind of subject of the registry. */
export async function favoritesApi(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ["interactions"];

  api.put(
    "/api/subjects/:type/:id/favorite/",
    {
      schema: {
        tags,
        summary: "Keep a subject in a favourites folder (the default one unless named), with an optional note",
        params: subjectParams,
        body: favoriteInputSchema.nullish(),
        response: { 200: stateAnswer },
      },
    },
    async (request, reply) => {
      const viewer = requireSignedIn(await request.viewer());
      const state = await favorite({ db: app.db }, viewer, request.params.type, request.params.id, request.body ?? {});
      personal(reply);
      return presentFavoriteState(state);
    },
  );

  api.delete(
    "/api/subjects/:type/:id/favorite/",
    {
      schema: {
        tags,
        summary: "Take a subject out of one's favourites",
        params: subjectParams,
        body: noBody,
        response: { 200: stateAnswer },
      },
    },
    async (request, reply) => {
      const viewer = requireSignedIn(await request.viewer());
      const state = await unfavorite({ db: app.db }, viewer, request.params.type, request.params.id);
      personal(reply);
      return presentFavoriteState(state);
    },
  );

  api.get(
    "/api/favorites/",
    {
      schema: {
        tags,
        summary: "One's favourites, newest first, 20 a page: in a folder or all, matching q in title or note",
        querystring: favoritesQuerySchema,
        response: { 200: z.object({ results: z.array(itemAnswer), next_cursor: z.string().nullable() }) },
      },
    },
    async (request, reply) => {
      const viewer = requireSignedIn(await request.viewer());
      const page = await listFavorites(app.db, viewer, request.query);
      personal(reply);
      return { results: page.items.map(presentFavoriteItem), next_cursor: page.nextCursor };
    },
  );

  api.patch(
    "/api/favorites/:type/:id/",
    {
      schema: {
        tags,
        summary: "Move a favourite to another folder or change its note",
        params: subjectParams,
        body: favoriteUpdateSchema,
        response: { 204: noContent },
      },
    },
    async (request, reply) => {
      const viewer = requireSignedIn(await request.viewer());
      await updateFavorite({ db: app.db }, viewer, request.params.type, request.params.id, request.body);
      personal(reply);
      return reply.code(204).send(null);
    },
  );

  api.delete(
    "/api/favorites/:type/:id/",
    {
      schema: {
        tags,
        summary: "Remove a favourite, even one no longer readable",
        params: subjectParams,
        body: noBody,
        response: { 204: noContent },
      },
    },
    async (request, reply) => {
      const viewer = requireSignedIn(await request.viewer());
      await removeFavoriteEntry({ db: app.db }, viewer, request.params.type, request.params.id);
      personal(reply);
      return reply.code(204).send(null);
    },
  );

  api.get(
    "/api/favorite_folders/",
    {
      schema: {
        tags,
        summary: "One's favourites folders, the default one first",
        response: { 200: z.object({ results: z.array(folderAnswer) }) },
      },
    },
    async (request, reply) => {
      const viewer = requireSignedIn(await request.viewer());
      personal(reply);
      return { results: (await listFolders(app.db, viewer.id)).map(presentFolder) };
    },
  );

  api.post(
    "/api/favorite_folders/",
    { schema: { tags, summary: "A new favourites folder (at most 50)", body: folderCreateSchema, response: { 201: folderAnswer } } },
    async (request, reply) => {
      const viewer = requireSignedIn(await request.viewer());
      const folder = await createFolder({ db: app.db }, viewer, request.body);
      personal(reply);
      return reply.code(201).send(presentFolder(folder));
    },
  );

  api.patch(
    "/api/favorite_folders/:id/",
    {
      schema: {
        tags,
        summary: "Rename a folder or make it public or private",
        params: folderParams,
        body: folderUpdateSchema,
        response: { 204: noContent },
      },
    },
    async (request, reply) => {
      const viewer = requireSignedIn(await request.viewer());
      await updateFolder({ db: app.db }, viewer, request.params.id, request.body);
      personal(reply);
      return reply.code(204).send(null);
    },
  );

  api.delete(
    "/api/favorite_folders/:id/",
    {
      schema: {
        tags,
        summary: "Delete a folder; its favourites move to the default folder",
        params: folderParams,
        body: noBody,
        response: { 200: z.object({ moved: z.number().int() }) },
      },
    },
    async (request, reply) => {
      const viewer = requireSignedIn(await request.viewer());
      const result = await deleteFolder({ db: app.db }, viewer, request.params.id);
      personal(reply);
      return result;
    },
  );
}
