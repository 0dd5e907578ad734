import type { User } from "../accounts/service.ts";
import { defaultAvatar } from "../accounts/presenter.ts";
import type { UserType } from "../accounts/constants.ts";
import type { PublicProfile, ActivityItem } from "./service.ts";
import type { Locale } from "../../common/locale.ts";
import { localizedTexts } from "../circles/presenter.ts";

/** The short names of the user types (badges, the admin command). */
export const userTypeKeys = {
  "Registered users": "registered",
  "Official users": "official",
  "VIP users": "vip",
  "SVIP users": "svip",
} as const satisfies Record<UserType, string>;
export type UserTypeKey = (typeof userTypeKeys)[UserType];

/** The signed-in user's own editable profile (`GET /api/Users/profile/`). */
export function presentOwnProfile(user: User) {
  return {
    username: user.username,
    nickname: user.nickname,
    signature: user.signature,
    self_description: user.selfDescription,
    gender: user.gender,
    birthday: user.birthday,
    country: user.country,
    school: user.school,
    profession: user.profession,
    hogwarts_school: user.hogwartsSchool,
    avatar: user.avatar ?? defaultAvatar,
    avatar_small: user.avatarSmall ?? user.avatar ?? defaultAvatar,
    user_type: user.userType,
  };
}

/** Anyone's public profile: no email, birthday or balances. */
export function presentPublicProfile(profile: PublicProfile) {
  const { user } = profile;
  return {
    username: user.username,
    nickname: user.nickname,
    signature: user.signature,
    self_description: user.selfDescription,
    school: user.school,
    profession: user.profession,
    hogwarts_school: user.hogwartsSchool,
    avatar: user.avatar ?? defaultAvatar,
    user_type: user.userType,
    user_type_key: userTypeKeys[user.userType],
    followers_count: profile.followers,
    intelligence_score: user.intelligenceScore,
    following_count: profile.following,
    reads_count: profile.reads,
    likes_count: profile.likes,
    consecutive_checkin_days: profile.checkin.consecutiveDays,
    total_checkin_days: profile.checkin.totalDays,
    badge: profile.adornments.badge,
    avatar_frame: profile.adornments.frame,
    joined: user.createdAt.toISOString(),
  };
}

/**
 * One activity line: the verb, when, the followed user (`target`), and what it links to (`link`:
 * the circle's name in the interface language, or the content's title; the path without the
 * language prefix).
 */
export function presentActivity(item: ActivityItem, locale: Locale) {
  const link = item.circle
    ? { label: localizedTexts(item.circle, locale).name, path: `/circles/${item.circle.id}`, language: null }
    : item.content
      ? { label: item.content.title, path: item.content.path, language: item.content.language }
      : null;
  return { id: item.id, verb: item.verb, at: item.at.toISOString(), target: item.target, link };
}
