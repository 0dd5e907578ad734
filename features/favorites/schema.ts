import { z } from "zod";
import { idSchema as id } from "../../common/id.ts";
const note = z.string().trim().max(500, "validation:favorite_note_too_long");

/** `PUT /api/subjects/{type}/{id}/favorite/` and the action bar's form: the folder (default when left out) and a private note. */
export const favoriteInputSchema = z.object({ folder_id: id.optional(), note: note.optional() }).strict();
export type FavoriteInput = z.infer<typeof favoriteInputSchema>;

/** Moving a favourite or changing its note. */
export const favoriteUpdateSchema = z.object({ folder_id: id.optional(), note: note.optional() }).strict();

export const folderName = z.string().trim().min(1, "validation:folder_name_required").max(40, "validation:folder_name_too_long");

export const folderCreateSchema = z.object({ name: folderName, is_public: z.boolean().optional() }).strict();
export const folderUpdateSchema = z.object({ name: folderName.optional(), is_public: z.boolean().optional() }).strict();

export const favoritesQuerySchema = z.object({
  folder_id: id.optional(),
  q: z.string().trim().max(100).optional(),
  cursor: z.string().max(64).optional(),
});
