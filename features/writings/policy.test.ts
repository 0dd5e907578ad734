import { describe, expect, it } from "vitest";
import type { Viewer } from "../accounts/viewer.ts";
import type { CircleAccess, CircleRole, CircleVisibility } from "../circles/policy.ts";
import { can, canWriteIn } from "./policy.ts";

const viewer = (id: number): Viewer => ({ id, username: `u${id}`, nickname: `u${id}`, userType: "Registered users", avatar: null });
const access = (visibility: CircleVisibility, role: CircleRole | null = null): CircleAccess => ({
  circle: { id: 7, parentId: 1, visibility },
  role,
  parentMember: false,
  parentVisible: true,
});
const writing = { authorId: 1 };

describe("writings policy", () => {
  it("reads what the circle lets the viewer read", () => {
    expect(can(null, "read", { writing, access: access("public") })).toBe(true);
    expect(can(null, "read", { writing, access: access("circle") })).toBe(false);
    expect(can(viewer(2), "read", { writing, access: access("circle") })).toBe(false);
    expect(can(viewer(2), "read", { writing, access: access("circle", "member") })).toBe(true);
    expect(can(viewer(2), "read", { writing, access: access("members") })).toBe(false);
  });

  it("lets only the author edit and extend, and the author or moderators delete", () => {
    const resource = (role: CircleRole | null) => ({ writing, access: access("public", role) });
    expect(can(viewer(1), "edit", resource(null))).toBe(true);
    expect(can(viewer(1), "extend", resource(null))).toBe(true);
    expect(can(viewer(2), "edit", resource("founder"))).toBe(false);
    expect(can(viewer(2), "extend", resource("admin"))).toBe(false);
    expect(can(viewer(2), "delete", resource("member"))).toBe(false);
    expect(can(viewer(2), "delete", resource("master"))).toBe(true);
    expect(can(viewer(1), "delete", resource(null))).toBe(true);
    expect(can(null, "delete", resource(null))).toBe(false);
  });

  it("stops an author who lost access to a closed circle from editing there", () => {
    expect(can(viewer(1), "edit", { writing, access: access("circle") })).toBe(false);
  });

  it("publishes where the circles policy allows writing", () => {
    expect(canWriteIn(viewer(2), access("public"))).toBe(true);
    expect(canWriteIn(null, access("public"))).toBe(false);
    expect(canWriteIn(viewer(2), access("circle"))).toBe(false);
    expect(canWriteIn(viewer(2), access("circle", "member"))).toBe(true);
  });
});
