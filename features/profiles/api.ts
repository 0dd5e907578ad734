import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Viewer } from "../accounts/viewer.ts";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { jsonRoute, requireSignedIn } from "../../server/lib/operation.ts";
import { getOwnProfileOperation, getPublicProfileOperation, updateOwnProfileOperation } from "./operations.ts";
import { addCatalog, translator } from "../../common/i18n.ts";
import zhCentre from "../../common/locales/zh-CN/centre.json" with { type: "json" };
import enCentre from "../../common/locales/en/centre.json" with { type: "json" };
import { authorize } from "../../common/policy.ts";
import { can as canAccount } from "../accounts/policy.ts";
import { sessionCookieName, signedInCookies } from "../accounts/cookies.server.ts";
import { clientOf, isSecure } from "../../server/lib/request-facts.ts";
import { readUploadedFile } from "../attachments/multipart.server.ts";
import { uploadRateLimit } from "../attachments/api.ts";
import { maxImageBytes } from "../attachments/constants.ts";
import { passwordChangeSchema } from "./schema.ts";
import { changePassword, setAvatar } from "./service.ts";

addCatalog("centre", { "zh-CN": zhCentre, en: enCentre });

export async function profilesApi(app: FastifyInstance, { sessionSecret }: { sessionSecret: string }): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();

  /** The account's own settings: a visitor is asked to sign in (the accounts policy lets everyone manage their own). */
  const signedIn = async (request: FastifyRequest): Promise<Viewer> => {
    const viewer = requireSignedIn(await request.viewer());
    authorize(viewer, canAccount(viewer, "manage_account", { userId: viewer.id }));
    return viewer;
  };

  jsonRoute(app, "GET", "/api/Users/profile/", getOwnProfileOperation, {
    tags: ["profiles"],
    summary: "One's own profile settings",
    cache: "no-store",
  });
  jsonRoute(app, "PATCH", "/api/Users/profile/", updateOwnProfileOperation, {
    tags: ["profiles"],
    summary: "Edit any subset of nickname, signature, self_description, gender, birthday, country, school, profession, hogwarts_school",
    cache: "no-store",
  });

  /**
   * `{ old_password, password, confirm_password }`: every session is signed out; this client gets a
   * new session cookie and a CSRF token bound to it (its old token no longer works), as on sign-in.
   */
  api.post(
    "/api/Users/password/",
    { schema: { body: passwordChangeSchema, response: { 200: z.strictObject({ code: z.string(), message: z.string() }) } } },
    async (request, reply) => {
      const viewer = await signedIn(request);
      const session = await changePassword({ db: app.db }, viewer.id, request.body, clientOf(request), request.cookies[sessionCookieName]);
      reply.header(
        "set-cookie",
        signedInCookies(sessionSecret, session.token, { persistent: session.persistent, secure: isSecure(request) }),
      );
      reply.header("cache-control", "no-store");
      return { code: "password_changed", message: translator(request.locale)("centre:password_form.changed") };
    },
  );

  /** Multipart, field `file`: JPG or PNG up to 2 MB. Answers the new avatar URLs. */
  api.post("/api/Users/avatar/", { schema: { hide: true }, config: { rateLimit: uploadRateLimit } }, async (request, reply) => {
    const viewer = await signedIn(request);
    const file = await readUploadedFile(request, { maxBytes: maxImageBytes });
    const avatar = await setAvatar({ db: app.db, files: app.files }, viewer.id, file.bytes);
    reply.header("cache-control", "no-store");
    return { avatar: avatar.avatar, avatar_small: avatar.avatarSmall };
  });

  jsonRoute(app, "GET", "/api/Users/profile/:username/", getPublicProfileOperation, {
    tags: ["profiles"],
    summary: "A public profile, the viewer's follow state and what they may do with it",
    cache: "no-store",
  });
}
