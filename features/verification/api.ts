import type { FastifyInstance } from "fastify";
import { jsonRoute } from "../../server/lib/operation.ts";
import {
  sendLoginCodeOperation,
  sendPasswordResetCodeOperation,
  sendSmsCodeOperation,
  setPasswordWithTokenOperation,
  smsLogInOperation,
  verifyPasswordResetCodeOperation,
} from "./operations.ts";

/** SMS sign-in, the puzzle's alternative and password reset: everything that sends or checks a code. */
export async function verificationApi(app: FastifyInstance): Promise<void> {
  const tags = ["verification"];
  jsonRoute(app, "POST", "/api/Users/sms/send_code/", sendSmsCodeOperation, { tags, summary: "Send an SMS sign-in code", cache: "none" });
  jsonRoute(app, "POST", "/api/Users/sms/login/", smsLogInOperation, {
    tags,
    summary: "Sign in with an SMS code (201 when it created the account)",
    status: [200, 201],
    cache: "no-store",
  });
  jsonRoute(app, "POST", "/api/Users/login_code/send/", sendLoginCodeOperation, {
    tags,
    summary: "Send a sign-in code instead of the puzzle",
    cache: "none",
  });
  jsonRoute(app, "POST", "/api/Users/password_reset/send_code/", sendPasswordResetCodeOperation, {
    tags,
    summary: "Send a password reset code",
    cache: "none",
  });
  jsonRoute(app, "POST", "/api/Users/password_reset/verify/", verifyPasswordResetCodeOperation, {
    tags,
    summary: "Exchange a reset code for a reset token",
    cache: "no-store",
  });
  jsonRoute(app, "POST", "/api/Users/password_reset/set/", setPasswordWithTokenOperation, {
    tags,
    summary: "Set a new password with a reset token",
    status: 204,
    cache: "none",
  });
}
