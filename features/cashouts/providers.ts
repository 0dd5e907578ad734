import { alipayPayoutProvider, wechatPayoutProvider } from "./live.ts";
import type { PayoutProvider } from "./provider.ts";
import { sandboxPayoutProvider } from "./sandbox.ts";
import { assertPayoutsSafe, cashoutSettings, type CashoutSettings } from "./settings.ts";

type ProviderName = PayoutProvider["name"];
const providers: Partial<Record<ProviderName, PayoutProvider>> = { sandbox: sandboxPayoutProvider };
let mode: CashoutSettings["provider"] = "sandbox";

function pem(text: string | undefined): string | undefined {
  return text?.replaceAll("\\n", "\n");
}

/**
 * Chooses the payout providers at start-up (`buildApp`); the answer is for the start-up log. A
 * live provider while top-ups are free throws: the server does not start.
 */
export function configurePayouts(settings: CashoutSettings = cashoutSettings, env: NodeJS.ProcessEnv = process.env): string {
  assertPayoutsSafe(settings);
  mode = settings.provider;
  for (const name of Object.keys(providers) as ProviderName[]) delete providers[name];
  if (mode === "sandbox") {
    providers.sandbox = sandboxPayoutProvider;
    return "payouts: sandbox (a tester marks each cashout paid or failed)";
  }
  if (env.ALIPAY_APP_ID && env.ALIPAY_PRIVATE_KEY && env.ALIPAY_PUBLIC_KEY)
    providers.alipay = alipayPayoutProvider({
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
    providers.wechat = wechatPayoutProvider({
      appId: env.WECHATPAY_APP_ID,
      merchantId: env.WECHATPAY_MCH_ID,
      merchantSerial: env.WECHATPAY_SERIAL ?? "",
      privateKey: pem(env.WECHATPAY_PRIVATE_KEY)!,
      platformPublicKey: pem(env.WECHATPAY_PLATFORM_PUBLIC_KEY)!,
      apiV3Key: env.WECHATPAY_API_V3_KEY,
    });
  return `payouts: live (${Object.keys(providers).join(", ") || "no provider configured"})`;
}

/** The provider a new cashout to this payee goes through: the sandbox in sandbox mode, else the payee's own. */
export function providerNameFor(payeeKind: "alipay" | "wechat"): ProviderName {
  return mode === "sandbox" ? "sandbox" : payeeKind;
}

export function payoutProvider(name: ProviderName): PayoutProvider | undefined {
  return providers[name];
}

export function isPayoutSandbox(): boolean {
  return mode === "sandbox";
}

/** Tests: put a provider in place of one (a failing or forgetful one), and the sandbox back after. */
export function replacePayoutProvider(name: ProviderName, provider: PayoutProvider | undefined): void {
  if (provider) providers[name] = provider;
  else if (name === "sandbox") providers.sandbox = sandboxPayoutProvider;
  else delete providers[name];
}
