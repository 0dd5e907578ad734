import { z } from "zod";
import { AppError } from "../../common/app-error.ts";
import { authorize } from "../../common/policy.ts";
import { defineOperation, type OperationViewer } from "../../server/lib/operation.ts";
import { can as canAccount } from "../accounts/policy.ts";
import { can as canFollow } from "../follows/policy.ts";
import { getUser } from "../accounts/service.ts";
import { passwordChangeSchema, profileUpdateSchema } from "./schema.ts";
import { changePassword, findUserByUsername, getProfileSummary, listActivity, updateProfile } from "./service.ts";
import { addCatalog, translator } from "../../common/i18n.ts";
import zhCentre from "../../common/locales/zh-CN/centre.json" with { type: "json" };
import enCentre from "../../common/locales/en/centre.json" with { type: "json" };
import { sessionCookieName } from "../accounts/cookies.server.ts";
import { clientInfoOf, startSession } from "../accounts/operations.ts";

addCatalog("centre", { "zh-CN": zhCentre, en: enCentre });
import { presentActivity, presentOwnProfile, presentPublicProfile } from "./presenter.ts";

/* Profiles: one's own settings (read and edit), the password change and a public profile. The avatar upload stays a raw route in api.ts (multipart). */

export const ownProfileAnswer = z.strictObject({
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
  /** The standing score (features/trust/score.ts), recomputed nightly. */
  intelligence_score: z.number(),
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

/** The accounts policy lets everyone manage their own account; asked all the same, so a change there holds here. */
export function authorizeOwnAccount(viewer: OperationViewer): void {
  authorize(viewer, canAccount(viewer, "manage_account", { userId: viewer.id }));
}

export const getOwnProfileOperation = defineOperation({
  name: "getOwnProfile",
  input: {},
  viewer: "signed-in",
  run: async (services, viewer) => {
    authorizeOwnAccount(viewer);
    const user = await getUser(services.db, viewer.id);
    if (!user) throw new AppError("not_authenticated");
    return user;
  },
  present: (user) => presentOwnProfile(user),
  response: ownProfileAnswer,
  failures: ["forbidden"],
});

/** Any subset of nickname, signature, self_description, gender, birthday, country, school, profession, hogwarts_school. */
export const updateOwnProfileOperation = defineOperation({
  name: "updateOwnProfile",
  input: { body: profileUpdateSchema },
  viewer: "signed-in",
  run: (services, viewer, { body }) => {
    authorizeOwnAccount(viewer);
    return updateProfile({ db: services.db }, viewer.id, body);
  },
  present: (user) => presentOwnProfile(user),
  response: ownProfileAnswer,
  failures: ["forbidden"],
});

/**
 * `{ old_password, password, confirm_password }`: every session is signed out; this client gets a
 * new session cookie and a CSRF token bound to it (its old token no longer works), as on sign-in.
 */
export const changePasswordOperation = defineOperation({
  name: "changePassword",
  input: { body: passwordChangeSchema },
  viewer: "signed-in",
  run: async (services, viewer, { body }) => {
    authorizeOwnAccount(viewer);
    const session = await changePassword({ db: services.db }, viewer.id, body, clientInfoOf(services), services.cookie(sessionCookieName));
    await startSession(services, { ...session, user: viewer });
  },
  present: (_result, { locale }) => ({ code: "password_changed", message: translator(locale)("centre:password_form.changed") }),
  response: z.strictObject({ code: z.string(), message: z.string() }),
  failures: ["forbidden", "wrong_old_password", "too_many_attempts", "bad_request"],
});

/** A public profile, the viewer's follow state and what they may do with it. */
export const getPublicProfileOperation = defineOperation({
  name: "getPublicProfile",
  input: { params: z.object({ username: z.string().min(1).max(64) }) },
  viewer: "optional",
  run: async (services, viewer, { params }) => {
    const user = await findUserByUsername(services.db, params.username);
    if (!user) throw new AppError("not_found");
    const [summary, activity] = await Promise.all([
      getProfileSummary(services.db, user, viewer?.id ?? null, services.now()),
      listActivity(services.db, user.id, viewer),
    ]);
    return { summary, activity, canFollow: canFollow(viewer, "follow", { userId: user.id }) };
  },
  present: ({ summary, activity, canFollow: follow }, { locale }) => ({
    ...presentPublicProfile(summary),
    followed_by_viewer: summary.followedByViewer,
    activity: activity.map((item) => presentActivity(item, locale)),
    can: { follow },
  }),
  response: publicProfileAnswer,
  failures: ["not_found"],
});
