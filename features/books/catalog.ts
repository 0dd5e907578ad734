import { addCatalog } from "../../common/i18n.ts";
import zhBooks from "../../common/locales/zh-CN/books.json" with { type: "json" };
import enBooks from "../../common/locales/en/books.json" with { type: "json" };

/** The `books` namespace: book pages, their forms and the books API's field messages (loaded wherever books are). */
addCatalog("books", { "zh-CN": zhBooks, en: enBooks });
