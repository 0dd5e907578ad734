import { describe, expect, it } from "vitest";
import { fieldErrors, isRealPastDate, loginSchema, registerSchema } from "./schema.ts";
import { registerInputFromForm } from "./form-input.ts";

const valid = {
  username: "li_ming-2",
  email: "li@example.com",
  password: "abc12345",
  confirm_password: "abc12345",
  gender: "female",
  birthday: "2000-02-29",
  country: "CN",
};

function errorsOf(input: unknown) {
  const result = registerSchema.safeParse(input);
  return result.success ? {} : fieldErrors(result.error);
}

describe("registration schema (shared by browser and server)", () => {
  it("accepts a valid registration", () => {
    expect(registerSchema.safeParse(valid).success).toBe(true);
  });

  it.each([
    ["", "validation:username_required"],
    ["a", "validation:username_length"],
    ["ab", null],
    ["a".repeat(16), null],
    ["a".repeat(17), "validation:username_length"],
    ["名字", "validation:username_chars"],
    ["a b", "validation:username_chars"],
    ["a.b", "validation:username_chars"],
  ])("username %j → %s", (username, expected) => {
    expect(errorsOf({ ...valid, username }).username ?? null).toBe(expected);
  });

  it.each([
    ["abc1234", "validation:password_length"],
    ["abcd1234", null],
    ["a".repeat(19) + "1", null],
    ["a".repeat(20) + "1", "validation:password_length"],
    ["abcdefgh", "validation:password_letters_digits"],
    ["12345678", "validation:password_letters_digits"],
  ])("password %j → %s", (password, expected) => {
    expect(errorsOf({ ...valid, password, confirm_password: password }).password ?? null).toBe(expected);
  });

  it("requires the confirmation to match, even when other fields are wrong too", () => {
    expect(errorsOf({ ...valid, confirm_password: "abc12346" }).confirm_password).toBe("validation:passwords_not_matching");
    expect(errorsOf({ ...valid, username: "a", confirm_password: "abc12346" })).toMatchObject({
      username: "validation:username_length",
      confirm_password: "validation:passwords_not_matching",
    });
  });

  it("requires gender, birthday and country", () => {
    expect(errorsOf({ ...valid, gender: undefined, birthday: "", country: "" })).toMatchObject({
      gender: "validation:gender_required",
      birthday: "validation:birthday_required",
      country: "validation:country_required",
    });
  });

  it("rejects fields it does not know", () => {
    expect(registerSchema.safeParse({ ...valid, role: "admin" }).success).toBe(false);
  });

  it("reads form posts into the same shape", () => {
    const form = new FormData();
    for (const [key, value] of Object.entries(valid)) form.set(key, value);
    expect(registerSchema.safeParse(registerInputFromForm(form)).success).toBe(true);
  });
});

describe("birthdays", () => {
  it.each([
    ["2000-02-29", true],
    ["2001-02-29", false],
    ["2001-13-01", false],
    ["1899-12-31", false],
    ["2000-1-1", false],
    ["3000-01-01", false],
  ])("%s is a real past date: %s", (value, expected) => {
    expect(isRealPastDate(value)).toBe(expected);
  });

  it("takes today from Asia/Shanghai: at 01:00 there (17:00 UTC the day before) today is already allowed", () => {
    const now = new Date("2026-03-09T17:00:00Z");
    expect(isRealPastDate("2026-03-10", now)).toBe(true);
    expect(isRealPastDate("2026-03-11", now)).toBe(false);
    // At 23:00 in Shanghai (15:00 UTC) the next UTC-day is still tomorrow.
    expect(isRealPastDate("2026-03-11", new Date("2026-03-10T15:00:00Z"))).toBe(false);
  });
});

describe("login schema", () => {
  it("defaults stay-signed-in to false and trims the account name", () => {
    expect(loginSchema.parse({ username: "  demo ", password: "x" })).toEqual({ username: "demo", password: "x", remember: false });
  });
});
