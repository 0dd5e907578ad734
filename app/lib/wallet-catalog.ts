import { addCatalog } from "../../common/i18n.ts";
import zhWallet from "../../common/locales/zh-CN/wallet.json" with { type: "json" };
import enWallet from "../../common/locales/en/wallet.json" with { type: "json" };

/** Texts of the wallet, the top-up, the sandbox cashier and tips, loaded only by the routes that show them. */
addCatalog("wallet", { "zh-CN": zhWallet, en: enWallet });
