import type { User } from "./service.ts";
import { shanghaiDay } from "../../common/locale.ts";

export const defaultAvatar = "/default-avatar.svg";
export const authSuccessCode = 100;
export const authAnonymousCode = 101;

/** The current-user fields of the spec (section 3), as the client holds them. */
export interface CurrentUser {
  user_id: number;
  user_type: string;
  avatar: string;
  /** The header-size avatar (64 px); the default image when none was uploaded. */
  avatar_small: string;
  username: string;
  nickname: string;
  email: string;
  date: string;
  sex: string;
  self_description: string;
  intelligence_score: number;
  gold: number;
  sinecoin: number;
  school: string;
  profession: string;
  Hogwarts_school: string;
  sinecoin_total_profit: number;
  sinecoin_total_cashout: number;
  cashoutable_sinecoin_profit: number;
}

export const anonymousUser: CurrentUser = {
  user_id: 0,
  user_type: "",
  avatar: defaultAvatar,
  avatar_small: defaultAvatar,
  username: "",
  nickname: "",
  email: "",
  date: "",
  sex: "",
  self_description: "",
  intelligence_score: 0,
  gold: 0,
  sinecoin: 0,
  school: "",
  profession: "",
  Hogwarts_school: "",
  sinecoin_total_profit: 0,
  sinecoin_total_cashout: 0,
  cashoutable_sinecoin_profit: 0,
};

/** `date` is the day the account was created, in Asia/Shanghai. */
export function presentCurrentUser(user: User): CurrentUser {
  return {
    user_id: user.id,
    user_type: user.userType,
    avatar: user.avatar ?? defaultAvatar,
    avatar_small: user.avatarSmall ?? user.avatar ?? defaultAvatar,
    username: user.username,
    nickname: user.nickname,
    email: user.email ?? "",
    date: shanghaiDay(user.createdAt),
    sex: user.gender,
    self_description: user.selfDescription,
    intelligence_score: user.intelligenceScore,
    gold: user.gold,
    sinecoin: user.sinecoin,
    school: user.school,
    profession: user.profession,
    Hogwarts_school: user.hogwartsSchool,
    sinecoin_total_profit: user.sinecoinTotalProfit,
    sinecoin_total_cashout: user.sinecoinTotalCashout,
    cashoutable_sinecoin_profit: user.cashoutableSinecoinProfit,
  };
}
