import { z } from "zod";
import { idSchema } from "../../common/id.ts";
import { defineOperation, noContent } from "../../server/lib/operation.ts";
import { subjectParamsSchema } from "../subjects/schema.ts";
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

/*
 * Favourites (收藏) in folders as operations: each served by its API route (features/favorites/api.ts)
 * and, where a page posts it, by the same definition through a form adapter (the action bar's
 * favourite, /account/store).
 */

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
  /** Hidden by moderation (its title then empty unless the viewer may still read it). */
  hidden: z.boolean(),
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
    hidden: item.hidden,
  };
}

export const favoriteOperation = defineOperation({
  name: "favorite",
  input: { params: subjectParamsSchema, body: favoriteInputSchema.nullish() },
  viewer: "signed-in",
  run: (services, viewer, { params, body }) => favorite(services, viewer, params.type, params.id, body ?? {}),
  present: presentFavoriteState,
  response: stateAnswer,
  failures: ["not_found", "forbidden"],
});

export const unfavoriteOperation = defineOperation({
  name: "unfavorite",
  input: { params: subjectParamsSchema, body: noBody },
  viewer: "signed-in",
  run: (services, viewer, { params }) => unfavorite(services, viewer, params.type, params.id),
  present: presentFavoriteState,
  response: stateAnswer,
  failures: ["not_found"],
});

export const listFavoritesOperation = defineOperation({
  name: "listFavorites",
  input: { query: favoritesQuerySchema },
  viewer: "signed-in",
  run: (services, viewer, { query }) => listFavorites(services.db, viewer, query),
  present: (page) => ({ results: page.items.map(presentFavoriteItem), next_cursor: page.nextCursor }),
  response: z.object({ results: z.array(itemAnswer), next_cursor: z.string().nullable() }),
  failures: ["not_found"],
});

export const updateFavoriteOperation = defineOperation({
  name: "updateFavorite",
  input: { params: subjectParamsSchema, body: favoriteUpdateSchema },
  viewer: "signed-in",
  run: (services, viewer, { params, body }) => updateFavorite(services, viewer, params.type, params.id, body),
  present: () => null,
  response: noContent,
  failures: ["not_found"],
});

export const removeFavoriteOperation = defineOperation({
  name: "removeFavorite",
  input: { params: subjectParamsSchema, body: noBody },
  viewer: "signed-in",
  run: (services, viewer, { params }) => removeFavoriteEntry(services, viewer, params.type, params.id),
  present: () => null,
  response: noContent,
  failures: ["not_found"],
});

export const listFoldersOperation = defineOperation({
  name: "listFavoriteFolders",
  input: {},
  viewer: "signed-in",
  run: (services, viewer) => listFolders(services.db, viewer.id),
  present: (folders) => ({ results: folders.map(presentFolder) }),
  response: z.object({ results: z.array(folderAnswer) }),
  failures: [],
});

export const createFolderOperation = defineOperation({
  name: "createFavoriteFolder",
  input: { body: folderCreateSchema },
  viewer: "signed-in",
  run: (services, viewer, { body }) => createFolder(services, viewer, body),
  present: presentFolder,
  response: folderAnswer,
  failures: ["too_many_folders"],
});

export const updateFolderOperation = defineOperation({
  name: "updateFavoriteFolder",
  input: { params: folderParams, body: folderUpdateSchema },
  viewer: "signed-in",
  run: (services, viewer, { params, body }) => updateFolder(services, viewer, params.id, body),
  present: () => null,
  response: noContent,
  failures: ["not_found", "default_folder_fixed"],
});

export const deleteFolderOperation = defineOperation({
  name: "deleteFavoriteFolder",
  input: { params: folderParams, body: noBody },
  viewer: "signed-in",
  run: (services, viewer, { params }) => deleteFolder(services, viewer, params.id),
  present: (result) => result,
  response: z.object({ moved: z.number().int() }),
  failures: ["not_found", "default_folder_fixed"],
});
