import { index, layout, prefix, route, type RouteConfig, type RouteConfigEntry } from "@react-router/dev/routes";

/**
 * Every page exists twice: zh-CN without a prefix and English under /en. Route ids carry the
 * language so one module can serve both trees.
 */
function site(lang: "zh" | "en"): RouteConfigEntry[] {
  const id = (name: string) => `${lang}:${name}`;
  const redirect = (path: string, name: string) => route(path, "routes/legacy-redirect.tsx", { id: id(`legacy-${name}`) });
  return [
    layout(`routes/site-layout-${lang}.tsx`, { id: id("layout") }, [
      index("routes/home.tsx", { id: id("home") }),
      route("login", "routes/login.tsx", { id: id("login") }),
      route("register", "routes/register.tsx", { id: id("register") }),
      route("forget_password", "routes/forget-password.tsx", { id: id("forget-password") }),
      route("logout", "routes/logout.tsx", { id: id("logout") }),
      route("circles", "routes/circles.tsx", { id: id("circles") }),
      route("circles/new", "routes/circle-new.tsx", { id: id("circle-new") }),
      route("circles/:circleId", "routes/circle.tsx", { id: id("circle") }),
      route("circles/:circleId/new", "routes/circle-new.tsx", { id: id("subcircle-new") }),
      route("circles/:circleId/settings", "routes/circle-settings.tsx", { id: id("circle-settings") }),
      route("circles/:circleId/settings/i18n", "routes/circle-settings-i18n.tsx", { id: id("circle-settings-i18n") }),
      route("circles/:circleId/settings/members", "routes/circle-settings-members.tsx", { id: id("circle-settings-members") }),
      route("circles/:circleId/settings/categories", "routes/circle-settings-categories.tsx", { id: id("circle-settings-categories") }),
      route("search", "routes/search.tsx", { id: id("search") }),
      route("ranking", "routes/ranking.tsx", { id: id("ranking") }),
      route("feed.xml", "routes/feed.ts", { id: id("feed") }),
      route("circles/:circleId/feed.xml", "routes/feed.ts", { id: id("circle-feed") }),
      route("profile/:username/feed.xml", "routes/feed.ts", { id: id("profile-feed") }),
      route("about", "routes/about.tsx", { id: id("about") }),
      route("about/privacy", "routes/privacy.tsx", { id: id("privacy") }),
      route("help", "routes/help.tsx", { id: id("help") }),
      route("help/formatting", "routes/formatting-guide.tsx", { id: id("formatting-guide") }),
      route("app", "routes/app-intro.tsx", { id: id("app") }),
      route("app/download", "routes/app-download.tsx", { id: id("app-download") }),
      route("account/home", "routes/account-home.tsx", { id: id("account-home") }),
      route("account/profile", "routes/account-profile.tsx", { id: id("account-profile") }),
      route("account/avatar", "routes/account-avatar.tsx", { id: id("account-avatar") }),
      route("account/store", "routes/account-store.tsx", { id: id("account-store") }),
      route("account/missions", "routes/account-missions.tsx", { id: id("account-missions") }),
      route("profile/:username", "routes/profile.tsx", { id: id("profile") }),
      route("creator", "routes/creator.tsx", { id: id("creator") }),
      route("creator/manage/content", "routes/creator-content.tsx", { id: id("creator-content") }),
      route("creator/manage/comment", "routes/creator-comments.tsx", { id: id("creator-comments") }),
      route("account/*", "routes/signed-in-area.tsx", { id: id("account") }),
      route("message", "routes/message-centre-home.tsx", { id: id("message") }),
      route("messages", "routes/message-centre-home.tsx", { id: id("messages-home") }),
      route("messages/chat", "routes/messages-chat.tsx", { id: id("message-chat") }),
      route("messages/chat/:username", "routes/messages-chat-thread.tsx", { id: id("message-chat-thread") }),
      route("messages/:category", "routes/messages.tsx", { id: id("message-centre") }),
      route("messages/open/:id", "routes/messages-open.tsx", { id: id("message-open") }),
      route("messages/*", "routes/signed-in-area.tsx", { id: id("messages") }),
      route("circles/:circleId/write/book", "routes/book-write.tsx", { id: id("book-new") }),
      route("circles/:circleId/write/book/:bookId", "routes/book-write.tsx", { id: id("book-edit") }),
      route("circles/:circleId/write/book/:bookId/add-chapter", "routes/chapter-write.tsx", { id: id("chapter-new") }),
      route("circles/:circleId/write/book/:bookId/chapter/:chapterId", "routes/chapter-write.tsx", { id: id("chapter-edit") }),
      route("circles/:circleId/books/:bookId", "routes/book.tsx", { id: id("book") }),
      route("circles/:circleId/books/:bookId/chapters/:chapterId", "routes/book-chapter.tsx", { id: id("book-chapter") }),
      route("circles/:circleId/writing/:writingId", "routes/writing.tsx", { id: id("writing") }),
      route("circles/:circleId/writing/:writingId/:lang", "routes/writing.tsx", { id: id("writing-language") }),
      route("circles/:circleId/posts/:writingId", "routes/writing.tsx", { id: id("post") }),
      route("circles/:circleId/posts", "routes/circle-posts.tsx", { id: id("circle-posts") }),
      route("circles/:circleId/questions", "routes/circle-questions.tsx", { id: id("circle-questions") }),
      route("circles/:circleId/questions/:questionId", "routes/question.tsx", { id: id("question") }),
      route("circles/:circleId/questions/:questionId/:answerer", "routes/question-answer.tsx", { id: id("question-answer") }),
      route("circles/:circleId/ask", "routes/ask.tsx", { id: id("ask") }),
      route("circles/:circleId/encyclopedia", "routes/circle-encyclopedia.tsx", { id: id("circle-encyclopedia") }),
      route("circles/:circleId/encyclopedia/write", "routes/encyclopedia-write.tsx", { id: id("encyclopedia-write") }),
      route("circles/:circleId/encyclopedia/by-name/:name", "routes/encyclopedia-by-name.tsx", { id: id("encyclopedia-by-name") }),
      route("circles/:circleId/encyclopedia/:entryId", "routes/encyclopedia-entry.tsx", { id: id("encyclopedia-entry") }),
      route("circles/:circleId/encyclopedia/:entryId/edit", "routes/encyclopedia-write.tsx", { id: id("encyclopedia-edit") }),
      route("circles/:circleId/encyclopedia/:entryId/history", "routes/encyclopedia-history.tsx", { id: id("encyclopedia-history") }),
      route("circles/:circleId/encyclopedia/:entryId/:lang", "routes/encyclopedia-entry.tsx", { id: id("encyclopedia-entry-language") }),
      route("circles/:circleId/write/article", "routes/write.tsx", { id: id("write-article") }),
      route("circles/:circleId/post", "routes/write.tsx", { id: id("write-post") }),
      route("account/drafts", "routes/account-drafts.tsx", { id: id("account-drafts") }),
      route("circles/:circleId/write/*", "routes/signed-in-area.tsx", { id: id("circle-write") }),
      route("monetization", "routes/monetization.tsx", { id: id("monetization") }),
      route("trade", "routes/trade.tsx", { id: id("trade") }),
      route("trade/missions/me/accept", "routes/trade-progress-list.tsx", { id: id("trade-accepted") }),
      route("trade/missions/progress", "routes/trade-progress-list.tsx", { id: id("trade-progress") }),
      route("trade/missions/me/reward", "routes/trade-reward.tsx", { id: id("trade-reward") }),
      route("trade/missions/progress/:progressId", "routes/trade-progress.tsx", { id: id("trade-progress-record") }),
      route("trade/missions/:missionId", "routes/trade-mission.tsx", { id: id("trade-mission") }),
      route("wallet", "routes/wallet.tsx", { id: id("wallet") }),
      route("wallet/sinecoin", "routes/wallet-sinecoin.tsx", { id: id("wallet-sinecoin") }),
      route("wallet/reward", "routes/wallet-reward.tsx", { id: id("wallet-reward") }),
      route("wallet/accounts", "routes/wallet-accounts.tsx", { id: id("wallet-accounts") }),
      route("wallet/sinecoin_recharge", "routes/wallet-recharge.tsx", { id: id("wallet-recharge") }),
      route("wallet/topups/:orderId", "routes/wallet-topup.tsx", { id: id("wallet-topup") }),
      route("shop", "routes/shop.tsx", { id: id("shop") }),
      route("payments/sandbox/:orderId", "routes/payment-sandbox.tsx", { id: id("payment-sandbox") }),
      route("subjects/:type/:id/reaction", "routes/subject-reaction.tsx", { id: id("subject-reaction") }),
      route("subjects/:type/:id/favorite", "routes/subject-favorite.tsx", { id: id("subject-favorite") }),
      route("subjects/:type/:id/report", "routes/subject-report.tsx", { id: id("subject-report") }),
      route("subjects/:type/:id/share", "routes/subject-share.tsx", { id: id("subject-share") }),
      route("subjects/:type/:id/tip", "routes/subject-tip.tsx", { id: id("subject-tip") }),
      route("circles/:circleId/settings/reports", "routes/circle-settings-reports.tsx", { id: id("circle-settings-reports") }),
      route("admin/reports", "routes/admin-reports.tsx", { id: id("admin-reports") }),
      route("contact", "routes/contact.tsx", { id: id("contact") }),
      route("feedback", "routes/feedback.tsx", { id: id("feedback") }),
      route("admin/feedback", "routes/admin-feedback.tsx", { id: id("admin-feedback") }),
      route("link", "routes/link.tsx", { id: id("link") }),
      route("admin/links", "routes/admin-links.tsx", { id: id("admin-links") }),
      route("school", "routes/school.tsx", { id: id("school") }),
      route("school/:name", "routes/school-detail.tsx", { id: id("school-detail") }),
      route("wiki", "routes/wiki.tsx", { id: id("wiki") }),
      redirect("wiki/details/:id/:lang?", "wiki-details"),
      redirect("books/:id", "book"),
      redirect("books/:id/chapters/:chapterId", "chapter"),
      redirect("community", "community"),
      redirect("community/circles", "community-circles"),
      redirect("community/posts/:id", "post"),
      redirect("community/questions/:id", "question"),
      redirect("writing/:id/:lang?", "writing"),
      redirect("writings/:id/:lang?", "writings"),
      route("*", "routes/not-found.tsx", { id: id("not-found") }),
    ]),
  ];
}

/**
 * Paths match case-sensitively: "/EN/about" or "/ABOUT" would otherwise render a duplicate of a
 * page (in the wrong language for "/EN"); they are 404s like any other unknown path.
 */
function caseSensitive(entries: RouteConfigEntry[]): RouteConfigEntry[] {
  return entries.map((entry) => ({ ...entry, caseSensitive: true, children: entry.children ? caseSensitive(entry.children) : undefined }));
}

/** One sitemap index lists both languages; it answers at /sitemap.xml and /en/sitemap.xml, its pages at /sitemap/<section>-<n>.xml. */
const sitemaps = [
  route("sitemap.xml", "routes/sitemap.ts", { id: "sitemap" }),
  route("en/sitemap.xml", "routes/sitemap.ts", { id: "en:sitemap" }),
  route("sitemap/:file", "routes/sitemap-page.ts", { id: "sitemap-page" }),
];

export default caseSensitive([...sitemaps, ...site("zh"), ...prefix("en", site("en"))]) satisfies RouteConfig;
