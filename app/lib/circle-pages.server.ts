import { data } from "react-router";
import type { AppContext } from "../context.ts";
import { AppError } from "../../common/app-error.ts";
import { csrfForForm, notFound, privatePageHeaders, tagPage } from "./context.server.ts";
import { requireCircle } from "../../features/circles/access.server.ts";
import type { CircleAccess, CircleAction } from "../../features/circles/policy.ts";
import { circleLineage, getCircleRow, type CircleRow } from "../../features/circles/service.ts";
import { storeImage } from "../../features/attachments/service.ts";
import { maxImageBytes } from "../../features/attachments/constants.ts";
import { circleTag } from "../../server/lib/cache-tags.ts";

/** The `:circleId` of a circle path, or the 404 screen (ids are up to nine digits). */
export function circleIdOf(request: Request, raw: string | undefined): number {
  if (!raw || !/^\d{1,9}$/.test(raw)) notFound(request);
  return Number(raw);
}

/**
 * The guard of the management pages: visitors go to log in (and come back), whatever the id; a
 * circle the viewer may not see is the 404 screen (never reveal a hidden circle); one they see but
 * may not manage is the 403 screen.
 */
export async function managedCircle(
  app: AppContext,
  request: Request,
  raw: string | undefined,
  action: CircleAction,
): Promise<{ access: CircleAccess; row: CircleRow }> {
  if (!app.viewer) throw new AppError("not_authenticated");
  const id = circleIdOf(request, raw);
  let access: CircleAccess;
  try {
    access = await requireCircle(app.db, app.viewer, id, action, { signedIn: true });
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") notFound(request);
    throw error;
  }
  const row = await getCircleRow(app.db, id);
  if (!row) notFound(request);
  await tagCirclePage(app, id);
  return { access, row };
}

/** A page showing a circle carries its tag and its ancestors' (a parent's change can hide or rename it). */
export async function tagCirclePage(app: AppContext, circleId: number): Promise<void> {
  tagPage(app, ...(await circleLineage(app.db, circleId)).map((id) => circleTag(id)));
}

/** Loader data of a page with forms: the CSRF token beside it, and never cached or shared. */
export function withFormToken<T extends object>(app: AppContext, value: T) {
  const csrf = csrfForForm(app);
  return data(
    { ...value, csrfToken: csrf.token },
    { headers: { ...privatePageHeaders(), ...(csrf.setCookie ? { "Set-Cookie": csrf.setCookie } : {}) } },
  );
}

/**
 * The logo a circle form uploaded (field `logo`), checked by its bytes, re-encoded as a 256 px
 * square and stored before any transaction; `undefined` when none was chosen. Image errors
 * (`image_too_large`, `image_type_not_allowed`, `image_invalid`) reach the form as its message.
 */
export async function uploadedCircleLogo(app: AppContext, viewerId: number, form: FormData): Promise<{ logo?: string }> {
  const file = form.get("logo");
  if (!(file instanceof File) || file.size === 0) return {};
  if (file.size > maxImageBytes) throw new AppError("image_too_large");
  const stored = await storeImage(
    { db: app.db, files: app.files },
    { ownerId: viewerId, bytes: Buffer.from(await file.arrayBuffer()), purpose: "circle_logo", square: 256 },
  );
  return { logo: stored.url };
}
