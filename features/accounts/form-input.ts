/** Turns posted form fields into the shape the shared schemas expect (browser and server alike). */
export function registerInputFromForm(form: FormData) {
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : undefined;
  };
  return {
    username: text("username"),
    email: text("email"),
    password: text("password"),
    confirm_password: text("confirm_password"),
    gender: text("gender"),
    birthday: text("birthday"),
    country: text("country"),
    captcha: text("captcha") || undefined,
  };
}

export function loginInputFromForm(form: FormData) {
  const username = form.get("username");
  const password = form.get("password");
  const captcha = form.get("captcha");
  return {
    username: typeof username === "string" ? username : undefined,
    password: typeof password === "string" ? password : undefined,
    remember: form.get("remember") === "on",
    captcha: typeof captcha === "string" && captcha ? captcha : undefined,
  };
}
