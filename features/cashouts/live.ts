import { constants, publicEncrypt } from "node:crypto";
import { AlipaySdk } from "alipay-sdk";
import type { AlipaySettings } from "../payments/alipay.ts";
import { wechatSigner, type WechatSettings } from "../payments/wechat.ts";
import type { PayoutProvider, PayoutQuery, PayoutTransfer } from "./provider.ts";

function yuan(fen: number): string {
  return (fen / 100).toFixed(2);
}

interface AlipayTransferAnswer {
  code?: string;
  subCode?: string;
  subMsg?: string;
  orderId?: string;
  payFundOrderId?: string;
  status?: string;
  failReason?: string;
  errorCode?: string;
}

function alipayOutcome(answer: AlipayTransferAnswer): PayoutQuery {
  if (answer.status === "SUCCESS") return { state: "paid", ref: answer.payFundOrderId ?? answer.orderId ?? null };
  if (answer.status === "FAIL" || answer.status === "CLOSED" || answer.status === "REFUND")
    return { state: "failed", reason: answer.failReason ?? answer.errorCode ?? answer.status };
  return { state: "pending" };
}

/**
 * Alipay's transfer to an Alipay account (`alipay.fund.trans.uni.transfer`, product
 * `TRANS_ACCOUNT_NO_PWD`, scene `DIRECT_TRANSFER`) through the official `alipay-sdk`, and its query
 * (`alipay.fund.trans.common.query` by `out_biz_no`); answers' signatures checked by the SDK.
 */
export function alipayPayoutProvider(settings: AlipaySettings): PayoutProvider {
  const sdk = new AlipaySdk({
    appId: settings.appId,
    privateKey: settings.privateKey,
    keyType: /BEGIN PRIVATE KEY/.test(settings.privateKey) ? "PKCS8" : "PKCS1",
    alipayPublicKey: settings.alipayPublicKey,
    ...(settings.gateway ? { gateway: settings.gateway } : {}),
  });
  return {
    name: "alipay",
    async transfer(transfer: PayoutTransfer) {
      const answer = (await sdk.exec(
        "alipay.fund.trans.uni.transfer",
        {
          bizContent: {
            out_biz_no: transfer.id,
            trans_amount: yuan(transfer.netFen),
            product_code: "TRANS_ACCOUNT_NO_PWD",
            biz_scene: "DIRECT_TRANSFER",
            order_title: "Circles creator income",
            payee_info: { identity: transfer.payeeAccount, identity_type: "ALIPAY_LOGON_ID", name: transfer.payeeName },
          },
        },
        { validateSign: true },
      )) as AlipayTransferAnswer;
      // A business refusal (no such account, name mismatch) is final; anything else is not known.
      if (answer.code === "40004") return { state: "failed", reason: answer.subCode ?? answer.subMsg ?? "refused" };
      if (answer.code !== "10000") throw new Error(`alipay.fund.trans.uni.transfer answered ${answer.code ?? "nothing"}`);
      const outcome = alipayOutcome(answer);
      return outcome.state === "unknown" ? { state: "pending" } : outcome;
    },
    async query(transfer: PayoutTransfer) {
      const answer = (await sdk.exec(
        "alipay.fund.trans.common.query",
        { bizContent: { out_biz_no: transfer.id, product_code: "TRANS_ACCOUNT_NO_PWD", biz_scene: "DIRECT_TRANSFER" } },
        { validateSign: true },
      )) as AlipayTransferAnswer;
      if (answer.code === "40004" && /ORDER_NOT_EXIST/.test(answer.subCode ?? "")) return { state: "unknown" };
      if (answer.code !== "10000") throw new Error(`alipay.fund.trans.common.query answered ${answer.code ?? "nothing"}`);
      return alipayOutcome(answer);
    },
  };
}

interface WechatBill {
  out_bill_no?: string;
  transfer_bill_no?: string;
  state?: string;
  fail_reason?: string;
}

function wechatOutcome(bill: WechatBill): PayoutQuery {
  if (bill.state === "SUCCESS") return { state: "paid", ref: bill.transfer_bill_no ?? null };
  if (bill.state === "FAIL" || bill.state === "CANCELLED") return { state: "failed", reason: bill.fail_reason ?? bill.state };
  // ACCEPTED, PROCESSING, TRANSFERING, and WAIT_USER_CONFIRM (the payee confirms in WeChat).
  return { state: "pending" };
}

/**
 * WeChat Pay's merchant transfer (v3 `transfer-bills`, scene 1005 "labour remuneration") to the
 * payee's openid, the real name encrypted with the platform key; the payee confirms receipt in
 * WeChat (`WAIT_USER_CONFIRM` stays pending until then). Queried by `out_bill_no`.
 */
export function wechatPayoutProvider(settings: WechatSettings): PayoutProvider {
  const { gateway, authorization, signatureProblem } = wechatSigner(settings);
  async function call(method: "GET" | "POST", path: string, payload?: unknown): Promise<{ status: number; text: string }> {
    const body = payload === undefined ? "" : JSON.stringify(payload);
    const response = await fetch(`${gateway}${path}`, {
      method,
      headers: {
        accept: "application/json",
        ...(body ? { "content-type": "application/json" } : {}),
        authorization: authorization(method, path, body),
        "wechatpay-serial": settings.merchantSerial,
      },
      ...(body ? { body } : {}),
    });
    const text = await response.text();
    if (response.ok) {
      const problem = signatureProblem(Object.fromEntries(response.headers), text);
      if (problem) throw new Error(`WeChat Pay's answer failed its check: ${problem}`);
    }
    return { status: response.status, text };
  }
  return {
    name: "wechat",
    async transfer(transfer: PayoutTransfer) {
      const userName = publicEncrypt(
        { key: settings.platformPublicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: "sha1" },
        Buffer.from(transfer.payeeName),
      ).toString("base64");
      const { status, text } = await call("POST", "/v3/fund-app/mch-transfer/transfer-bills", {
        appid: settings.appId,
        out_bill_no: transfer.id,
        transfer_scene_id: "1005",
        openid: transfer.payeeAccount,
        user_name: userName,
        transfer_amount: transfer.netFen,
        transfer_remark: "Circles creator income",
        transfer_scene_report_infos: [
          { info_type: "岗位类型", info_content: "内容创作者" },
          { info_type: "报酬说明", info_content: "创作收益提现" },
        ],
      });
      if (status === 400 || status === 403)
        return { state: "failed", reason: (JSON.parse(text) as { code?: string }).code ?? String(status) };
      if (status < 200 || status >= 300) throw new Error(`WeChat Pay answered ${status} to a transfer`);
      const outcome = wechatOutcome(JSON.parse(text) as WechatBill);
      return outcome.state === "unknown" ? { state: "pending" } : outcome;
    },
    async query(transfer: PayoutTransfer) {
      const { status, text } = await call("GET", `/v3/fund-app/mch-transfer/transfer-bills/out-bill-no/${encodeURIComponent(transfer.id)}`);
      if (status === 404) return { state: "unknown" };
      if (status < 200 || status >= 300) throw new Error(`WeChat Pay answered ${status} to a transfer query`);
      return wechatOutcome(JSON.parse(text) as WechatBill);
    },
  };
}
