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
  /** Set while staff suspend the account (features/admin): it may read, not write, until then. */
  suspendedUntil?: Date | null;
  /** Why, shown to the account's owner while suspended. */
  suspensionReason?: string;
}

export function presentViewer(user: {
  id: number;
  username: string;
  nickname: string;
  userType: UserType;
  avatar: string | null;
  suspendedUntil?: Date | null;
  suspensionReason?: string;
}): Viewer {
  const viewer: Viewer = { id: user.id, username: user.username, nickname: user.nickname, userType: user.userType, avatar: user.avatar };
  if (user.suspendedUntil) {
    viewer.suspendedUntil = user.suspendedUntil;
    viewer.suspensionReason = user.suspensionReason ?? "";
  }
  return viewer;
}
