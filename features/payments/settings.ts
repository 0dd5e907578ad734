import { createHmac } from "node:crypto";
import { alipayProvider } from "./alipay.ts";
import type { PaymentProvider } from "./provider.ts";
import { sandboxProvider } from "./sandbox.ts";
import { wechatProvider } from "./wechat.ts";

/**
 * Which providers take payments, from the environment (README, "Payments"):
 * `PAYMENT_PROVIDER=sandbox`: both methods go through the built-in sandbox (the default outside
 * production; with `NODE_ENV=production` only when set explicitly, else top-ups are closed);
 * `PAYMENT_PROVIDER=live`: Alipay with `ALIPAY_APP_ID`, `ALIPAY_PRIVATE_KEY`, `ALIPAY_PUBLIC_KEY`
 * (`ALIPAY_GATEWAY`), WeChat Pay with `WECHATPAY_APP_ID`, `WECHATPAY_MCH_ID`, `WECHATPAY_SERIAL`,
 * `WECHATPAY_PRIVATE_KEY`, `WECHATPAY_PLATFORM_PUBLIC_KEY`, `WECHATPAY_API_V3_KEY`; both need
 * `PUBLIC_URL` (where the providers send their notifies). The sandbox exists only in sandbox mode.
 */
export interface PaymentSettings {
  mode: "sandbox" | "live" | "closed";
  publicUrl: string;
  providers: Partial<Record<"sandbox" | "alipay" | "wechat", PaymentProvider>>;
  /** The sandbox's signing secret (derived from the session secret unless PAYMENT_SANDBOX_SECRET is set). */
  sandboxSecret: string;
}

const settings: PaymentSettings = { mode: "sandbox", publicUrl: "", providers: {}, sandboxSecret: "" };

function pem(text: string | undefined): string | undefined {
  return text?.replaceAll("\\n", "\n");
}

/** Which provider is on, chosen from the environment; the answer is for the start-up log. */
export function configurePayments(sessionSecret: string, env: NodeJS.ProcessEnv = process.env): string {
  const sandboxSecret = env.PAYMENT_SANDBOX_SECRET || createHmac("sha256", sessionSecret).update("payment-sandbox").digest("hex");
  settings.sandboxSecret = sandboxSecret;
  settings.publicUrl = (env.PUBLIC_URL ?? "").replace(/\/$/, "");
  const chosen = env.PAYMENT_PROVIDER || (env.NODE_ENV === "production" ? "" : "sandbox");
  // A production server never mints free coins by default: the sandbox must be asked for by name.
  settings.mode = chosen === "live" ? "live" : chosen === "sandbox" ? "sandbox" : "closed";
  settings.providers = {};
  if (settings.mode === "closed") return "payments: closed (set PAYMENT_PROVIDER=sandbox or live to open top-ups)";
  if (settings.mode === "sandbox") {
    settings.providers.sandbox = sandboxProvider(sandboxSecret);
    return "payments: sandbox (top-ups are not charged)";
  }
  if (env.ALIPAY_APP_ID && env.ALIPAY_PRIVATE_KEY && env.ALIPAY_PUBLIC_KEY)
    settings.providers.alipay = alipayProvider({
      appId: env.ALIPAY_APP_ID,
      privateKey: pem(env.ALIPAY_PRIVATE_KEY)!,
      alipayPublicKey: pem(env.ALIPAY_PUBLIC_KEY)!,
      ...(env.ALIPAY_GATEWAY ? { gateway: env.ALIPAY_GATEWAY } : {}),
    });
  if (
    env.WECHATPAY_APP_ID &&
    env.WECHATPAY_MCH_ID &&
    env.WECHATPAY_PRIVATE_KEY &&
    env.WECHATPAY_PLATFORM_PUBLIC_KEY &&
    env.WECHATPAY_API_V3_KEY
  )
    settings.providers.wechat = wechatProvider({
      appId: env.WECHATPAY_APP_ID,
      merchantId: env.WECHATPAY_MCH_ID,
      merchantSerial: env.WECHATPAY_SERIAL ?? "",
      privateKey: pem(env.WECHATPAY_PRIVATE_KEY)!,
      platformPublicKey: pem(env.WECHATPAY_PLATFORM_PUBLIC_KEY)!,
      apiV3Key: env.WECHATPAY_API_V3_KEY,
    });
  return `payments: live (${Object.keys(settings.providers).join(", ") || "no provider configured"})`;
}

export function paymentSettings(): Readonly<PaymentSettings> {
  return settings;
}

/** The provider that takes a payment method: the sandbox in sandbox mode, else the method's own. */
export function providerFor(method: "wechat" | "alipay"): PaymentProvider | undefined {
  return settings.mode === "sandbox" ? settings.providers.sandbox : settings.providers[method];
}

export function providerNamed(name: string): PaymentProvider | undefined {
  return name === "sandbox" || name === "alipay" || name === "wechat" ? settings.providers[name] : undefined;
}
