import { describe, expect, it } from "vitest";
import { can, canSetRole, canRemoveMember, type CircleAccess, type CircleRole, type CircleVisibility } from "./policy.ts";
import type { Viewer } from "../accounts/viewer.ts";

const viewer: Viewer = { id: 7, username: "u7", nickname: "u7", userType: "Registered users", avatar: null };
const access = (visibility: CircleVisibility, role: CircleRole | null, extra: Partial<CircleAccess> = {}): CircleAccess => ({
  circle: { id: 5, parentId: 1, visibility },
  role,
  parentMember: false,
  parentVisible: true,
  ...extra,
});

describe("circle visibility", () => {
  it("public: everyone sees the circle and its content", () => {
    expect(can(null, "view", access("public", null))).toBe(true);
    expect(can(null, "read_content", access("public", null))).toBe(true);
  });
  it("circle: listed to everyone, content to members only", () => {
    expect(can(null, "view", access("circle", null))).toBe(true);
    expect(can(viewer, "read_content", access("circle", null))).toBe(false);
    expect(can(viewer, "read_content", access("circle", "member"))).toBe(true);
  });
  it("parent: members of the parent circle see it and its content; others do not know it exists", () => {
    expect(can(viewer, "view", access("parent", null))).toBe(false);
    expect(can(viewer, "view", access("parent", null, { parentMember: true }))).toBe(true);
    expect(can(viewer, "read_content", access("parent", null, { parentMember: true }))).toBe(true);
  });
  it("members: only members", () => {
    expect(can(viewer, "view", access("members", null, { parentMember: true }))).toBe(false);
    expect(can(viewer, "view", access("members", "member"))).toBe(true);
  });
  it("a hidden parent hides its sub-circles from non-members", () => {
    expect(can(null, "view", access("public", null, { parentVisible: false }))).toBe(false);
    expect(can(viewer, "view", access("public", "member", { parentVisible: false }))).toBe(true);
  });
});

describe("circle roles", () => {
  it("lets administrators and above manage, super administrators and the founder delete", () => {
    expect(can(viewer, "manage_members", access("public", "master"))).toBe(false);
    expect(can(viewer, "manage_members", access("public", "admin"))).toBe(true);
    expect(can(viewer, "delete", access("public", "admin"))).toBe(false);
    expect(can(viewer, "delete", access("public", "super_admin"))).toBe(true);
    expect(can(viewer, "moderate", access("public", "master"))).toBe(true);
  });
  it("never demotes the founder or anyone at or above one's own rank", () => {
    const admin = access("public", "admin");
    expect(canSetRole(viewer, admin, { userId: 8, role: "member" }, "admin")).toBe(true);
    expect(canSetRole(viewer, admin, { userId: 8, role: "member" }, "super_admin")).toBe(false);
    expect(canSetRole(viewer, admin, { userId: 8, role: "admin" }, "member")).toBe(false);
    expect(canSetRole(viewer, access("public", "founder"), { userId: 8, role: "founder" }, "member")).toBe(false);
    expect(canRemoveMember(viewer, access("public", "super_admin"), { userId: 8, role: "admin" })).toBe(true);
    expect(canRemoveMember(viewer, admin, { userId: 8, role: "admin" })).toBe(false);
  });
  it("keeps the founder in the circle", () => {
    expect(can(viewer, "leave", access("public", "founder"))).toBe(false);
    expect(can(viewer, "leave", access("public", "member"))).toBe(true);
    expect(can(null, "join", access("public", null))).toBe(false);
  });
});
