import type { FastifyInstance } from "fastify";
import { jsonRoute } from "../../server/lib/operation.ts";
import {
  createFolderOperation,
  deleteFolderOperation,
  favoriteOperation,
  listFavoritesOperation,
  listFoldersOperation,
  removeFavoriteOperation,
  unfavoriteOperation,
  updateFavoriteOperation,
  updateFolderOperation,
} from "./operations.ts";

/** Favourites (收藏) in folders, on any kind of subject of the registry. */
export async function favoritesApi(app: FastifyInstance): Promise<void> {
  const tags = ["interactions"];
  jsonRoute(app, "PUT", "/api/subjects/:type/:id/favorite/", favoriteOperation, {
    tags,
    summary: "Keep a subject in a favourites folder (the default one unless named), with an optional note",
  });
  jsonRoute(app, "DELETE", "/api/subjects/:type/:id/favorite/", unfavoriteOperation, {
    tags,
    summary: "Take a subject out of one's favourites",
  });
  jsonRoute(app, "GET", "/api/favorites/", listFavoritesOperation, {
    tags,
    summary: "One's favourites, newest first, 20 a page: in a folder or all, matching q in title or note",
  });
  jsonRoute(app, "PATCH", "/api/favorites/:type/:id/", updateFavoriteOperation, {
    tags,
    status: 204,
    summary: "Move a favourite to another folder or change its note",
  });
  jsonRoute(app, "DELETE", "/api/favorites/:type/:id/", removeFavoriteOperation, {
    tags,
    status: 204,
    summary: "Remove a favourite, even one no longer readable",
  });
  jsonRoute(app, "GET", "/api/favorite_folders/", listFoldersOperation, {
    tags,
    summary: "One's favourites folders, the default one first",
  });
  jsonRoute(app, "POST", "/api/favorite_folders/", createFolderOperation, {
    tags,
    status: 201,
    summary: "A new favourites folder (at most 50)",
  });
  jsonRoute(app, "PATCH", "/api/favorite_folders/:id/", updateFolderOperation, {
    tags,
    status: 204,
    summary: "Rename a folder or make it public or private",
  });
  jsonRoute(app, "DELETE", "/api/favorite_folders/:id/", deleteFolderOperation, {
    tags,
    summary: "Delete a folder; its favourites move to the default folder",
  });
}
