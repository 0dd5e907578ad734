import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Viewer } from "../accounts/viewer.ts";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireSignedIn } from "../../server/lib/operation.ts";
import { AppError } from "../../common/app-error.ts";
import { addCatalog, translator } from "../../common/i18n.ts";
import zhCentre from "../../common/locales/zh-CN/centre.json" with { type: "json" };
import enCentre from "../../common/locales/en/centre.json" with { type: "json" };
import { authorize } from "../../common/policy.ts";
import { can as canAccount } from "../accounts/policy.ts";
import { can as canFollow } from "../follows/policy.ts";
import { getUser } from "../accounts/service.ts";
import { sessionCookieName, signedInCookies } from "../accounts/cookies.server.ts";
import { clientOf, isSecure } from "../../server/lib/request-facts.ts";
import { readUploadedFile } from "../attachments/multipart.server.ts";
import { uploadRateLimit } from "../attachments/api.ts";
import { maxImageBytes } from "../attachments/constants.ts";
import { passwordChangeSchema, profileUpdateSchema } from "./schema.ts";
import { changePassword, findUserByUsername, getProfileSummary, listActivity, setAvatar, updateProfile } from "./service.ts";
import { presentActivity, presentOwnProfile, presentPublicProfile } from "./presenter.ts";

addCatalog("centre", { "zh-CN": zhCentre, en: enCentre });

const ownProfileAnswer = z.strictObject({
  username: z.string(),
  nickname: z.string(),
  signature: z.string(),
  self_description: z.string(),
  gender: z.string(),
  birthday: z.string().nullable(),
  country: z.string(),
  school: z.string(),
  profession: z.string(),
  hogwarts_school: z.string(),
  avatar: z.string(),
  avatar_small: z.string(),
  user_type: z.string(),
});

const publicProfileAnswer = z.strictObject({
  username: z.string(),
  nickname: z.string(),
  signature: z.string(),
  self_description: z.string(),
  school: z.string(),
  profession: z.string(),
  hogwarts_school: z.string(),
  avatar: z.string(),
  user_type: z.string(),
  user_type_key: z.string(),
  followers_count: z.number(),
  following_count: z.number(),
  reads_count: z.number(),
  likes_count: z.number(),
  consecutive_checkin_days: z.number(),
  total_checkin_days: z.number(),
  /** The shop badge worn (an item code), or null. */
  badge: z.string().nullable(),
  /** The shop avatar frame worn (an item code), or null. */
  avatar_frame: z.string().nullable(),
  joined: z.string(),
  followed_by_viewer: z.boolean(),
  activity: z.array(
    z.strictObject({
      id: z.number(),
      verb: z.string(),
      at: z.string(),
      target: z.strictObject({ username: z.string(), nickname: z.string() }).nullable(),
      link: z.strictObject({ label: z.string(), path: z.string(), language: z.string().nullable() }).nullable(),
    }),
  ),
  can: z.strictObject({ follow: z.boolean() }),
});

export async function profilesApi(app: FastifyInstance, { sessionSecret }: { sessionSecret: string }): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();

  /** The account's own settings: a visitor is asked to sign in (the accounts policy lets everyone manage their own). */
  const signedIn = async (request: FastifyRequest): Promise<Viewer> => {
    const viewer = requireSignedIn(await request.viewer());
    authorize(viewer, canAccount(viewer, "manage_account", { userId: viewer.id }));
    return viewer;
  };

  api.get("/api/Users/profile/", { schema: { response: { 200: ownProfileAnswer } } }, async (request, reply) => {
    const viewer = await signedIn(request);
    const user = await getUser(app.db, viewer.id);
    if (!user) throw new AppError("not_authenticated");
    reply.header("cache-control", "no-store");
    return presentOwnProfile(user);
  });

  /** Any subset of nickname, signature, self_description, gender, birthday, country, school, profession, hogwarts_school. */
  api.patch(
    "/api/Users/profile/",
    { schema: { body: profileUpdateSchema, response: { 200: ownProfileAnswer } } },
    async (request, reply) => {
      const viewer = await signedIn(request);
      const user = await updateProfile({ db: app.db }, viewer.id, request.body);
      reply.header("cache-control", "no-store");
      return presentOwnProfile(user);
    },
  );

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

  /** A public profile, the viewer's follow state and what they may do with it. */
  api.get(
    "/api/Users/profile/:username/",
    { schema: { params: z.object({ username: z.string().min(1).max(64) }), response: { 200: publicProfileAnswer } } },
    async (request, reply) => {
      const viewer = await request.viewer();
      const user = await findUserByUsername(app.db, request.params.username);
      if (!user) throw new AppError("not_found");
      const [summary, activity] = await Promise.all([
        getProfileSummary(app.db, user, viewer?.id ?? null, app.now()),
        listActivity(app.db, user.id, viewer),
      ]);
      reply.header("cache-control", "no-store");
      return {
        ...presentPublicProfile(summary),
        followed_by_viewer: summary.followedByViewer,
        activity: activity.map((item) => presentActivity(item, request.locale)),
        can: { follow: canFollow(viewer, "follow", { userId: user.id }) },
      };
    },
  );
}
