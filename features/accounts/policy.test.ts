import { describe, expect, it } from "vitest";
import { can } from "./policy.ts";
import type { Viewer } from "./viewer.ts";

const viewer = (id: number, userType: Viewer["userType"] = "Registered users"): Viewer => ({
  id,
  username: `u${id}`,
  nickname: `u${id}`,
  userType,
  avatar: null,
});

describe("accounts policy", () => {
  it("lets only signed-in viewers into the personal area", () => {
    expect(can(null, "enter_personal_area")).toBe(false);
    expect(can(viewer(1), "enter_personal_area")).toBe(true);
  });

  it("sends every user type but Registered users to the monetization home", () => {
    expect(can(null, "enter_monetization_home")).toBe(false);
    expect(can(viewer(1), "enter_monetization_home")).toBe(false);
    for (const type of ["Official users", "VIP users", "SVIP users"] as const)
      expect(can(viewer(1, type), "enter_monetization_home")).toBe(true);
  });

  it("lets a user manage only their own account", () => {
    expect(can(viewer(1), "manage_account", { userId: 1 })).toBe(true);
    expect(can(viewer(1), "manage_account", { userId: 2 })).toBe(false);
    expect(can(null, "manage_account", { userId: 1 })).toBe(false);
  });
});
