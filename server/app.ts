import "../common/i18n-core.ts";
import "../features/registrations.ts";
import { createServer } from "node:http";
import Fastify, { LogController, type FastifyInstance } from "fastify";
import { sql } from "drizzle-orm";
import cookie from "@fastify/cookie";
import helmet from "@fastify/helmet";
import compress from "@fastify/compress";
import { constants as zlibConstants } from "node:zlib";
import rateLimit from "@fastify/rate-limit";
import multipart from "@fastify/multipart";
import path from "node:path";
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import { jsonSchemaTransform, serializerCompiler } from "fastify-type-provider-zod";
import { edgeValidatorCompiler } from "./lib/validator.ts";
import { continueOnlyWhenBodyIsRead } from "./lib/request-bodies.ts";
import type { Config } from "./config.ts";
import type { DatabaseHandle } from "./db/client.ts";
import { requestContext } from "./plugins/request-context.ts";
import { createReadRouting } from "./lib/read-routing.ts";
import { invalidationChannel } from "./plugins/invalidation-channel.ts";
import { csrfProtection } from "./plugins/csrf.ts";
import { errorHandling } from "./plugins/errors.ts";
import { pages, type PageRenderer, type PagesOptions } from "./plugins/pages.ts";
import { PageCache, serveFromPageCache } from "./plugins/page-cache.ts";
import { answerClientError, answerUnparsableRequest } from "./plugins/error-answers.ts";
import { accountsApi } from "../features/accounts/api.ts";
import { captchaApi } from "../features/captcha/api.ts";
import { messagesApi } from "../features/messages/api.ts";
import { chatsApi } from "../features/chats/api.ts";
import { messageStream } from "../features/messages/stream.ts";
import { circlesApi } from "../features/circles/api.ts";
import { writingsApi } from "../features/writings/api.ts";
import { feedsApi } from "../features/feeds/api.ts";
import { searchApi } from "../features/search/api.ts";
import { creatorApi } from "../features/creator/api.ts";
import { analysisApi } from "../features/analysis/api.ts";
import { verificationApi } from "../features/verification/api.ts";
import { createDelivery } from "../features/delivery/delivery.server.ts";
import type { Delivery } from "../features/delivery/message.ts";
import { outboxPage } from "../features/delivery/outbox-page.ts";
import { attachmentsApi } from "../features/attachments/api.ts";
import { LocalFileStore, type FileStore } from "../features/attachments/file-store.server.ts";
import { maxImageBytes } from "../features/attachments/constants.ts";
import { profilesApi } from "../features/profiles/api.ts";
import { followsApi } from "../features/follows/api.ts";
import { paymentsApi } from "../features/payments/api.ts";
import { configurePayments } from "../features/payments/settings.ts";
import { tipsApi } from "../features/tips/api.ts";
import { paywallApi } from "../features/paywall/api.ts";
import { redPacketsApi } from "../features/red-packets/api.ts";
import { tradeApi } from "../features/trade/api.ts";
import { missionsApi } from "../features/missions/api.ts";
import { adsApi } from "../features/ads/api.ts";
import { walletApi } from "../features/wallet/api.ts";
import { cashoutsApi } from "../features/cashouts/api.ts";
import { monetizationApi } from "../features/monetization/api.ts";
import { configurePayouts } from "../features/cashouts/providers.ts";
import { shopApi } from "../features/shop/api.ts";
import { checkinsApi } from "../features/checkins/api.ts";
import { booksApi } from "../features/books/api.ts";
import { questionsApi } from "../features/questions/api.ts";
import { encyclopediaApi } from "../features/encyclopedia/api.ts";
import { reactionsApi } from "../features/reactions/api.ts";
import { favoritesApi } from "../features/favorites/api.ts";
import { sharesApi } from "../features/shares/api.ts";
import { metricsApi } from "../features/metrics/api.ts";
import { reportsApi } from "../features/reports/api.ts";
import { feedbackApi } from "../features/feedback/api.ts";
import { linksApi } from "../features/links/api.ts";
import { schoolsApi } from "../features/schools/api.ts";
import { adminApi } from "../features/admin/api.ts";
import { rateLimitBackend } from "./rate-limit-store.ts";
import { configureReports } from "../features/reports/service.ts";
import { configureCorrections } from "../features/admin/corrections.ts";
import { commentsApi } from "../features/comments/api.ts";

export interface AppOptions {
  config: Config;
  database: DatabaseHandle;
  /** Server-rendered pages; omitted in API tests that need no client build. */
  pages?: { buildDirectory: string; cache: boolean; bodyLimits?: Record<string, number>; wrapBuild?: PagesOptions["wrapBuild"] };
  logger?: boolean;
  /** Replaces mail and SMS delivery (tests); otherwise built from the configuration. */
  delivery?: Delivery;
  /** The time verification codes are checked against (tests move it instead of sleeping). */
  clock?: () => Date;
  /** Where uploads are kept; DATA_DIR/uploads on local disk unless given. */
  files?: FileStore;
  /** The clock of date-bound rules (daily check-in); tests pass their own. */
  now?: () => Date;
  /** How often view beacons are written, in ms (1,000; 0 writes each before answering, as API tests want). */
  viewFlushMs?: number;
}

declare module "fastify" {
  interface FastifyInstance {
    files: FileStore;
    now: () => Date;
  }
}

/**
 * Fastify reads a bare hop count as "trust nothing" (it cannot tell the peer is a proxy); as a
 * function it keeps its plain meaning: the nearest `hops` addresses of the chain are our proxies,
 * so the client is the address the outermost of them saw.
 */
function proxyTrust(setting: Config["trustProxy"]): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof setting === "number") return (_address, hop) => hop < setting;
  return setting;
}

/** The whole HTTP surface: JSON API under /api, pages for everything else. */
export async function buildApp({
  config,
  database,
  pages: pagesOptions,
  logger = false,
  delivery: deliveryOverride,
  clock,
  files = new LocalFileStore(path.join(config.dataDir, "uploads")),
  now = () => new Date(),
  viewFlushMs,
}: AppOptions): Promise<FastifyInstance> {
  const pageCache = pagesOptions?.cache ? new PageCache() : undefined;
  const app = Fastify({
    // Cached anonymous pages are answered before Fastify's routing (see page-cache.ts).
    serverFactory: (handler) => {
      const server = createServer(
        (request, response) => (pageCache && serveFromPageCache(pageCache, request, response)) || handler(request, response),
      );
      continueOnlyWhenBodyIsRead(server);
      return server;
    },
    logger: logger ? { level: "info" } : false,
    // Errors and start/stop are logged; a line per request would cost more than serving a cached page.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 64 * 1024,
    trustProxy: proxyTrust(config.trustProxy),
    return503OnClosing: true,
    // Loading the page build imports the source modules it shares with the server; a busy machine may take a while.
    pluginTimeout: 120_000,
    forceCloseConnections: "idle",
    frameworkErrors: answerUnparsableRequest,
    clientErrorHandler: answerClientError,
  });
  app.setValidatorCompiler(edgeValidatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  await app.register(cookie);
  await app.register(helmet, {
    // Pages set their own policy in the document; the API answers JSON only.
    contentSecurityPolicy: false,
    crossOriginEmbedderPolicy: false,
    // "no-referrer" would make browsers send `Origin: null` on same-site form posts, which React
    // Router's action CSRF check rightly rejects; same-site Referer also tells the API the page language.
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
  });
  // Rendered pages and JSON are compressed on the fly (cached pages carry their compressed copies).
  await app.register(compress, {
    threshold: 1024,
    encodings: ["br", "gzip"],
    brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } },
  });
  // Reads that tolerate a short lag may go to a streaming replica (server/lib/read-routing.ts).
  const readRouting =
    config.databaseReplicaUrl && database.kind === "server" ? createReadRouting(database.db, config.databaseReplicaUrl) : undefined;
  if (readRouting) app.addHook("onClose", () => readRouting.close());
  else if (config.databaseReplicaUrl) app.log.warn("DATABASE_REPLICA_URL is ignored on the embedded store: set DATABASE_URL too");
  await app.register(requestContext, { db: database.db, readRouting });
  await app.register(invalidationChannel, { database });
  await app.register(errorHandling);
  await app.register(csrfProtection, { secret: config.sessionSecret });
  app.decorate("files", files);
  app.decorate("now", now);
  // Uploads: the file size limit is per route (readUploadedFile); these bound everything else in a multipart body.
  await app.register(multipart, {
    limits: { fileSize: maxImageBytes, files: 1, fields: 10, fieldSize: 1024, parts: 12, headerPairs: 100 },
  });
  // Per-route limits (`config.rateLimit`) for calls that are costly to answer; a 429 is localized by the error handler.
  // Counted where every process sees the same figure: Redis (REDIS_URL) or the database (server/rate-limit-store.ts).
  // A store that cannot answer lets the request through rather than failing it.
  const limits = rateLimitBackend(database.db, config.redisUrl);
  if (limits.kind === "redis") {
    await limits.redis
      .connect()
      .catch((error: unknown) => app.log.warn({ err: error }, "Redis is not reachable: route limits let requests through until it is"));
    app.addHook("onClose", async () => void (await limits.redis.quit().catch(() => "")));
  }
  await app.register(rateLimit, {
    global: false,
    skipOnError: true,
    ...(limits.kind === "redis" ? { redis: limits.redis, nameSpace: "circles-rate-limit-" } : { store: limits.store }),
  });

  /** For load balancers and uptime checks: the process answers and the database does too. */
  app.get("/api/health", async (_request, reply) => {
    await database.db.execute(sql`select 1`);
    reply.header("cache-control", "no-store");
    return { status: "ok" };
  });

  // OpenAPI from the same zod schemas that validate requests: /api/docs (UI) and /api/docs/json.
  await app.register(swagger, { openapi: { info: { title: "Circles API", version: "0.1.0" } }, transform: jsonSchemaTransform });
  await app.register(swaggerUi, { routePrefix: "/api/docs" });

  const delivery =
    deliveryOverride ??
    createDelivery({
      dataDir: config.dataDir,
      smtpUrl: config.smtpUrl,
      smsUrl: config.smsUrl,
      mailFrom: config.mailFrom,
      onOutbox: (file, message) => app.log.info({ file, channel: message.channel }, "message written to the dev outbox"),
    });

  // What operations read from the configuration (`services.settings`; pages get the same object).
  app.decorate("operationSettings", {
    sessionSecret: config.sessionSecret,
    captcha: config.captcha,
    signupsPerHour: config.signupsPerHour,
    delivery,
    codeClock: clock,
  });
  await app.register(accountsApi);
  await app.register(verificationApi);
  if (config.devOutboxPage) await app.register(outboxPage, { dataDir: config.dataDir });
  await app.register(captchaApi, { perMinute: config.captchaPerMinute });
  await app.register(messagesApi);
  await app.register(messageStream, { database });
  await app.register(chatsApi);
  await app.register(circlesApi);
  await app.register(booksApi);
  await app.register(writingsApi);
  await app.register(feedsApi);
  await app.register(searchApi);
  await app.register(creatorApi);
  await app.register(analysisApi);
  await app.register(encyclopediaApi);
  await app.register(questionsApi);
  await app.register(commentsApi);
  await app.register(reactionsApi);
  await app.register(favoritesApi);
  await app.register(sharesApi);
  await app.register(metricsApi, { viewFlushMs });
  configureReports({ hideThreshold: config.reportHideThreshold });
  configureCorrections({ approvalAbove: config.correctionApprovalAbove });
  await app.register(reportsApi);
  await app.register(feedbackApi);
  await app.register(linksApi);
  await app.register(schoolsApi);
  await app.register(adminApi);
  const pageRenderer: { render?: PageRenderer } = {};
  await app.register(attachmentsApi, { files, notFoundPage: () => pageRenderer.render });
  await app.register(profilesApi);
  await app.register(followsApi);
  await app.register(checkinsApi);
  await app.register(walletApi);
  await app.register(cashoutsApi);
  await app.register(monetizationApi);
  await app.register(shopApi);
  app.log.info(configurePayments(config.sessionSecret));
  app.log.info(configurePayouts());
  await app.register(paymentsApi);
  await app.register(tipsApi);
  await app.register(paywallApi);
  await app.register(redPacketsApi);
  await app.register(tradeApi);
  await app.register(missionsApi);
  await app.register(adsApi, { secret: config.sessionSecret });

  if (pagesOptions) {
    await app.register(pages, {
      buildDirectory: pagesOptions.buildDirectory,
      cache: pageCache,
      bodyLimits: pagesOptions.bodyLimits,
      wrapBuild: pagesOptions.wrapBuild,
      config,
      db: database.db,
      delivery,
      files,
      now,
      onReady: (render) => (pageRenderer.render = render),
    });
  }
  return app;
}
