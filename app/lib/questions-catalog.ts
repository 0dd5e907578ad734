import { addCatalog } from "../../common/i18n.ts";
import zhQuestions from "../../common/locales/zh-CN/questions.json" with { type: "json" };
import enQuestions from "../../common/locales/en/questions.json" with { type: "json" };

/** The question pages' own texts (`questions:` keys); imported by the question components and routes. */
addCatalog("questions", { "zh-CN": zhQuestions, en: enQuestions });
