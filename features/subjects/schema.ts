import { z } from "zod";
import { idSchema } from "../../common/id.ts";

/**
 * A subject in a path (`/api/subjects/{type}/{id}/…`, `/subjects/{type}/{id}/…`): the kind is
 * checked by the registry when it is loaded (an unknown kind is `not_found`), the id as every id.
 */
export const subjectParamsSchema = z.object({ type: z.string().min(1).max(32), id: idSchema });
export type SubjectParams = z.infer<typeof subjectParamsSchema>;
