import type { UserType } from "./constants.ts";

/**
 * Who is asking, as the session cache, the loader context and policies hold it: never the users
 * row (no password hash, no balances — those are loaded where they are shown).
 */
export interface Viewer {
  id: number;
  username: string;
  nickname: string;
  userType: UserType;
  avatar: string | null;
}

export function presentViewer(user: { id: number; username: string; nickname: string; userType: UserType; avatar: string | null }): Viewer {
  return { id: user.id, username: user.username, nickname: user.nickname, userType: user.userType, avatar: user.avatar };
}
