import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods, RouteShorthandOptions } from "fastify";
import { data } from "react-router";
import { z } from "zod";
import { AppError, errorStatus, presentError, type ErrorCode } from "../../common/app-error.ts";
import { translator } from "../../common/i18n.ts";
import { formatDate, pageUrl, type Locale } from "../../common/locale.ts";
import type { Database } from "../db/client.ts";
import { resolveVisitor, visitorCookieName } from "./visitor.ts";

/*
 * One definition per operation (comment on a writing, follow a user, join a circle…): its input
 * schemas, who may call it, the use case it runs, the failures it may answer, a pure presenter and
 * the schema of its answer. Two thin adapters serve it: `jsonRoute` (Fastify, /api) and
 * `formAction` (a page's form post); `dispatchIntent` picks a page form's handler by its `intent`.
 */

/** The presented viewer as the request context holds it (features/accounts/viewer.ts). */
export type OperationViewer = NonNullable<Awaited<ReturnType<FastifyRequest["viewer"]>>>;

/** What a use case is given besides the viewer and its input. */
export interface OperationServices {
  db: Database;
  /** The clock of date-bound rules. */
  now(): Date;
  /** The viewer's language (lists show the version of an item in it, when one exists). */
  locale: Locale;
  /** The request's idempotency key (`Idempotency-Key` header, or a page form's `idempotency_key` field): money-moving use cases require it. */
  idempotencyKey?: string | undefined;
  /**
   * Who a once-per-visitor count is for (views, shares): the signed-in user, or the anonymous
   * visitor's cookie, issued with the answer when missing (`server/lib/visitor.ts`). Only hashes
   * are ever stored.
   */
  visitor(): string;
  /** The site's origin as the request named it (`https://host`), for absolute links (the QR code). */
  origin?: string;
  /** Who is calling: their address and user agent (sign-ins, throttling, the staff audit log). */
  client: OperationClient;
  /** A cookie the request carries (the session's), by name. */
  cookie(name: string): string | undefined;
  /** What the answer carries besides its body: cookies it sets (sign-in, sign-out) and a success status chosen at run time. */
  answer: OperationAnswer;
  /** The site's settings use cases read (the session secret, the puzzle…), declared by the features that need them. */
  settings: OperationSettings;
  /**
   * Files a page's form carried with its fields, already checked and stored (field → URL: a new
   * circle's logo), from `formAction`'s `uploads`. The API uploads files on routes of their own.
   */
  uploaded?: Readonly<Record<string, string>>;
}

/** The calling client, as both adapters see it (no HTTP framework types reach the use case). */
export interface OperationClient {
  address: string;
  userAgent: string;
  /** Cookies set must be Secure: the request came over HTTPS (directly or through a trusted proxy). */
  secure: boolean;
}

/** The success statuses an answer may have. */
export type SuccessStatus = 200 | 201 | 204;

export interface OperationAnswer {
  /** Adds a `Set-Cookie` value to the answer (an API answer, or the page's answer to a form post). */
  setCookie(...values: string[]): void;
  /**
   * The success status when it depends on the run (201 when the sign-in created the account); it
   * must be one the route declares (`jsonRoute`'s `status` list). Pages answer with their own.
   */
  status(status: SuccessStatus): void;
}

/**
 * Settings from the site's configuration that use cases read. Empty here (this layer knows no
 * domain): a feature declares its members by augmenting this interface (features/accounts/settings.ts),
 * and the composition root fills them (`app.operationSettings`, the page context's `settings`).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface OperationSettings {}

declare module "fastify" {
  interface FastifyInstance {
    /** The settings every operation is given (server/app.ts). */
    operationSettings: OperationSettings;
  }
}

export interface PresentContext {
  viewer: OperationViewer | null;
  locale: Locale;
}

/** Where the input comes from: path parameters, query string and body, each its own schema. */
export interface OperationInput {
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
}

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;
export interface InputOf<I extends OperationInput> {
  params: Parsed<I["params"]>;
  query: Parsed<I["query"]>;
  body: Parsed<I["body"]>;
}

export type ViewerRequirement = "signed-in" | "optional";
export type ViewerFor<R extends ViewerRequirement> = R extends "signed-in" ? OperationViewer : OperationViewer | null;

export interface Operation<I extends OperationInput, R extends ViewerRequirement, Result, Answer> {
  /** What it is called in logs and in the OpenAPI operation id. */
  name: string;
  input: I;
  /** "signed-in": visitors get 401 (pages: the login redirect) before anything runs. */
  viewer: R;
  run(services: OperationServices, viewer: ViewerFor<R>, input: InputOf<I>): Promise<Result>;
  /** Pure: the result as it leaves the server (snake_case), no queries. */
  present(result: Result, context: PresentContext): Answer;
  /** The answer's schema (OpenAPI); `noContent` for a 204. */
  response: z.ZodType<Answer>;
  /** The error codes it answers besides the generic ones (401, 400 validation_failed, 403 csrf_failed, 429). */
  failures: readonly ErrorCode[];
  /** What an unexpected fault is answered as (the cause goes to the log); without it, a 500 `internal`. */
  unexpected?: ErrorCode;
  /** Whether it writes: a suspended viewer's call is 403 `account_suspended`. By default every signed-in form post and non-GET call. */
  writes?: boolean;
  /**
   * Its reads tolerate a short lag (search, rankings, feeds): through the JSON adapter it reads
   * from the read replica when one is configured and has replayed what the caller must see
   * (server/lib/read-routing.ts). Only for operations that never write.
   */
  lagging?: boolean;
}

export type AnyOperation = Operation<OperationInput, ViewerRequirement, unknown, unknown>;

/** Declares an operation; the identity function, there for the types. */
export function defineOperation<I extends OperationInput, R extends ViewerRequirement, Result, Answer>(
  definition: Operation<I, R, Result, Answer>,
): Operation<I, R, Result, Answer> {
  return definition;
}

/** The answer of an operation without a body (204). */
export const noContent = z.null().describe("No content");

/** The one viewer guard: a visitor is a 401 (`not_authenticated`), pages turn it into the login redirect. */
export function requireSignedIn<V>(viewer: V | null | undefined): V {
  if (!viewer) throw new AppError("not_authenticated");
  return viewer;
}

/** Answers that depend on who asks are never stored by shared caches. */
export function personal(reply: FastifyReply): FastifyReply {
  return reply.header("cache-control", "private, no-store");
}

/**
 * The services' `visitor()`: resolved on first call only (most operations never ask), and a
 * freshly issued visitor cookie handed to `issue` once, for the answer to carry.
 */
export function lazyVisitor(
  viewer: { id: number } | null,
  cookie: () => string | undefined,
  secure: boolean,
  issue: (setCookie: string) => void,
): () => string {
  let key: string | undefined;
  return () => {
    if (key === undefined) {
      const resolved = resolveVisitor(viewer, viewer ? undefined : cookie(), secure);
      key = resolved.key;
      if (resolved.issued) issue(resolved.issued);
    }
    return key;
  };
}

/** A viewer staff suspended until after `now` (features/admin): they may read, not write. */
function isSuspended(viewer: OperationViewer | null, now: Date): boolean {
  return !!viewer?.suspendedUntil && viewer.suspendedUntil.getTime() > now.getTime();
}

/** The refusal names why and until when, in the viewer's language (Asia/Shanghai time). */
function suspended(viewer: OperationViewer, locale: Locale): AppError {
  const until = viewer.suspendedUntil!;
  const reason = viewer.suspensionReason ?? "";
  return new AppError("account_suspended", {
    params: { until: formatDate(until, locale, { dateStyle: "medium", timeStyle: "short" }), reason },
    details: { suspended_until: until.toISOString(), reason },
  });
}

/** Runs an operation's use case: the viewer requirement, then `run`; an unexpected fault becomes its `unexpected` code. */
export async function runOperation<I extends OperationInput, R extends ViewerRequirement, Result, Answer>(
  operation: Operation<I, R, Result, Answer>,
  services: OperationServices,
  viewer: OperationViewer | null,
  input: InputOf<I>,
  logFault: (error: unknown) => void,
  writes = operation.writes ?? false,
): Promise<Result> {
  const allowed = (operation.viewer === "signed-in" ? requireSignedIn(viewer) : viewer) as ViewerFor<R>;
  // The one place suspension is enforced: reading goes on, every signed-in write stops.
  if (writes && operation.viewer === "signed-in" && isSuspended(viewer, services.now())) throw suspended(viewer!, services.locale);
  try {
    return await operation.run(services, allowed, input);
  } catch (error) {
    if (error instanceof AppError) {
      checkDeclared(operation, error.code);
      throw error;
    }
    if (!operation.unexpected) throw error;
    logFault(error);
    throw new AppError(operation.unexpected);
  }
}

/** Failures any operation may answer without declaring them: the adapters' own (401, 400, 403 CSRF, 429). */
export const genericFailures: readonly ErrorCode[] = ["not_authenticated", "validation_failed", "csrf_failed", "rate_limited"];

/** The codes an operation may answer: its declared failures, its `unexpected` and the generic ones (what OpenAPI lists). */
export function answerableFailures(operation: Pick<AnyOperation, "failures" | "unexpected">): ReadonlySet<ErrorCode> {
  return new Set([...operation.failures, ...(operation.unexpected ? [operation.unexpected] : []), ...genericFailures]);
}

/**
 * A failure the operation did not declare is a mistake in its definition (its OpenAPI document
 * lies): under test it fails the request loudly (a 500 the test sees), in development it is
 * logged; in production the answer goes out as it is.
 */
function checkDeclared(operation: Pick<AnyOperation, "name" | "failures" | "unexpected">, code: ErrorCode): void {
  if (process.env.NODE_ENV === "production" || answerableFailures(operation).has(code)) return;
  const message = `${operation.name} answered the undeclared failure ${code}: add it to its failures`;
  if (process.env.VITEST) throw new UndeclaredFailure(message);
  console.warn(message);
}

/** Thrown under test when an operation answers a failure it does not declare. */
export class UndeclaredFailure extends Error {
  override name = "UndeclaredFailure";
}

export interface JsonRouteOptions<Result = unknown> {
  /** Headers the answer carries, read from the use case's result (the unread counters' version). */
  headers?: (result: Result) => Record<string, string>;
  /**
   * The success status (200 by default; 201 created, 204 no content). A list when the use case
   * chooses at run time (`services.answer.status`): the first is the default, each is published.
   */
  status?: SuccessStatus | readonly [SuccessStatus, ...SuccessStatus[]];
  tags?: string[];
  summary?: string;
  config?: RouteShorthandOptions["config"];
  /** The most the body may carry, when it is not the app's default (documents: a writing, a chapter). */
  bodyLimit?: number;
  /** `private, no-store` (default: the answer depends on the viewer), `no-store`, or none. */
  cache?: "personal" | "no-store" | "none";
  /** Left out of the OpenAPI document (the tracking pixels). */
  hide?: boolean;
  /** The answer's media type when it is not JSON (the QR code's SVG): the presented string is sent as it is. */
  contentType?: string;
  /** A public answer that caches may keep this many seconds (instead of `cache`). */
  publicMaxAge?: number;
}

/**
 * The JSON adapter: the operation's schemas become the route's (validated by the zod type
 * provider, a failure is 400 `validation_failed`), its response schema goes into OpenAPI, and
 * failures are answered by the one error handler (server/plugins/errors.ts).
 */
export function jsonRoute<I extends OperationInput, R extends ViewerRequirement, Result, Answer>(
  app: FastifyInstance,
  method: HTTPMethods,
  url: string,
  operation: Operation<I, R, Result, Answer>,
  options: JsonRouteOptions<Result> = {},
): void {
  const statuses: readonly SuccessStatus[] = typeof options.status === "object" ? options.status : [options.status ?? 200];
  const { params, query, body } = operation.input;
  const schema = {
    operationId: operation.name,
    ...(options.tags ? { tags: options.tags } : {}),
    ...(options.summary ? { summary: options.summary } : {}),
    ...(options.hide ? { hide: true } : {}),
    ...(params ? { params } : {}),
    ...(query ? { querystring: query } : {}),
    ...(body ? { body } : {}),
    response: { ...Object.fromEntries(statuses.map((status) => [status, operation.response])), ...failureResponses(operation) },
  };
  // Plain route: the zod type provider is the app-wide validator and serializer; the input is typed by the definition.
  app.route({
    method,
    url,
    schema,
    ...(options.config ? { config: options.config } : {}),
    ...(options.bodyLimit ? { bodyLimit: options.bodyLimit } : {}),
    handler: async (request, reply) => {
      const viewer = await request.viewer();
      const input = { params: request.params, query: request.query, body: request.body } as InputOf<I>;
      const key = request.headers["idempotency-key"];
      const client: OperationClient = {
        address: request.ip,
        userAgent: request.headers["user-agent"] ?? "",
        secure: request.protocol === "https",
      };
      const cookies: string[] = [];
      let status = statuses[0]!;
      const services: OperationServices = {
        db: operation.lagging ? await request.readDb() : app.db,
        now: () => app.now(),
        locale: request.locale,
        idempotencyKey: typeof key === "string" ? key : undefined,
        visitor: lazyVisitor(
          viewer,
          () => request.cookies[visitorCookieName],
          client.secure,
          (cookie) => cookies.push(cookie),
        ),
        origin: `${request.protocol}://${request.host}`,
        client,
        cookie: (name) => request.cookies[name],
        answer: {
          setCookie: (...values) => cookies.push(...values),
          status: (chosen) => {
            if (!statuses.includes(chosen)) throw new Error(`${operation.name} answered ${chosen}, which its route does not declare`);
            status = chosen;
          },
        },
        settings: app.operationSettings,
      };
      const result = await runOperation(
        operation,
        services,
        viewer,
        input,
        (error) => request.log.error({ err: error }, `${operation.name} failed`),
        operation.writes ?? !["GET", "HEAD"].includes(method),
      );
      const answer = operation.present(result, { viewer, locale: request.locale });
      const cache = options.cache ?? "personal";
      if (options.publicMaxAge !== undefined) reply.header("cache-control", `public, max-age=${options.publicMaxAge}`);
      else if (cache === "personal") personal(reply);
      else if (cache === "no-store") reply.header("cache-control", "no-store");
      if (options.contentType) reply.header("content-type", options.contentType);
      if (options.headers) reply.headers(options.headers(result));
      if (cookies.length > 0) reply.header("set-cookie", cookies);
      reply.status(status);
      return status === 204 ? reply.send() : reply.send(answer as unknown);
    },
  });
}

/**
 * The operation's failures as OpenAPI responses: one per status, naming every code it may answer
 * with it. The schema is the error body's (`{ code, message, fields? }` and any details), loose
 * on purpose: it documents, it never refuses an answer.
 */
export function failureResponses(operation: Pick<AnyOperation, "failures" | "unexpected">): Record<number, z.ZodType> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of answerableFailures(operation)) {
    const status = errorStatus[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return Object.fromEntries(
    [...byStatus].map(([status, codes]) => [
      status,
      z
        .looseObject({
          code: z.string().describe(`One of: ${codes.join(", ")}`),
          message: z.string().describe("In the viewer's language"),
          fields: z.record(z.string(), z.string()).optional().describe("Field → message key (validation_failed)"),
        })
        .describe(codes.map((code) => `\`${code}\``).join(", ")),
    ]),
  );
}

/** What a page's action is given (structurally the page's AppContext, so this layer imports no pages). */
export interface FormContext {
  db: Database;
  now(): Date;
  viewer: OperationViewer | null;
  locale: Locale;
  /** The request's cookies (the visitor cookie). */
  cookies: Record<string, string | undefined>;
  /** Cookies are Secure when the request came over HTTPS. */
  secure: boolean;
  /** The client (sign-ins and throttling read it; its address goes into the staff audit log). */
  client?: { ip: string; userAgent: string };
  /** The site's settings operations read (the page context carries them). */
  settings: OperationSettings;
}

/** One form post: the page context, the request, the form already read (and its CSRF token checked) and the route's params. */
export interface FormPost {
  app: FormContext;
  request: Request;
  form: FormData;
  params: Readonly<Record<string, string | undefined>>;
}

/** A failed form post as pages show it: messages in the page's language, the status, the code. */
export interface FormFailure {
  formError?: string;
  /** Field → message already in the viewer's language. */
  fieldErrors?: Record<string, string>;
  code: string;
  status: number;
  /** The error's details (an edit conflict's current version…), for pages that show them. */
  details?: Record<string, unknown>;
}

export type FormHandler<T = unknown> = (post: FormPost) => Promise<T>;

export interface FormActionOptions<I extends OperationInput, Result, Answer, Done, Failed> {
  /** The path parameters from the page's URL (never from the form: the subject is the page's). */
  params?: (post: FormPost) => unknown;
  /** The body from the form; by default read by the body schema's field names and kinds (`formInput`). */
  body?: (form: FormData, post: FormPost) => unknown;
  /** Files the form carries, checked and stored once its fields parse, for the use case (`services.uploaded`); a refusal goes to `failed`. */
  uploads?: (post: FormPost) => Promise<Record<string, string>>;
  /** What the page answers after success (may throw a redirect). */
  /** `result` is the use case's own (a page may need more than the API answers: where to go next). */
  done: (answer: Answer, post: FormPost, details: { input: InputOf<I>; result: Result }) => Done;
  /** What the page answers on failure; by default `data(failure, { status })`. */
  failed?: (failure: FormFailure, post: FormPost) => Failed;
  /** Failures that go to the error screen (or the login redirect) instead of the form; by default 401 and 404. */
  errorScreen?: (error: AppError) => boolean;
  /** What path parameters that do not parse are thrown as; by default `bad_request` (a subject's page: `not_found`). */
  badParams?: ErrorCode;
}

const defaultErrorScreen = (error: AppError) => error.status === 401 || error.status === 404;

/**
 * The form adapter: the same schemas parse the form (field errors are translated into the page's
 * language, first message per field), the same use case runs, the same presenter answers; an
 * `AppError` becomes the form's message unless `errorScreen` says otherwise.
 */
export function formAction<
  I extends OperationInput,
  R extends ViewerRequirement,
  Result,
  Answer,
  Done,
  Failed = ReturnType<typeof data<FormFailure>>,
>(
  operation: Operation<I, R, Result, Answer>,
  options: FormActionOptions<I, Result, Answer, Done, Failed>,
): FormHandler<Awaited<Done> | Awaited<Failed>> {
  const errorScreen = options.errorScreen ?? defaultErrorScreen;
  const failed = options.failed ?? ((failure: FormFailure) => data(failure, { status: failure.status }) as Failed);
  const handler = async (post: FormPost) => {
    const { app } = post;
    if (operation.viewer === "signed-in") requireSignedIn(app.viewer);
    const { params: paramsSchema, query: querySchema, body: bodySchema } = operation.input;
    // The URL's parts are the page's own: one that does not parse is a bad request, not a form mistake.
    const params = paramsSchema ? paramsSchema.safeParse(options.params?.(post) ?? post.params) : undefined;
    if (params && !params.success) throw new AppError(options.badParams ?? "bad_request");
    const query = querySchema ? querySchema.safeParse(Object.fromEntries(pageUrl(post.request.url).searchParams)) : undefined;
    if (query && !query.success) throw new AppError("bad_request");
    let body: unknown;
    if (bodySchema) {
      const parsed = bodySchema.safeParse(options.body ? options.body(post.form, post) : formInput(bodySchema, post.form));
      if (!parsed.success) return failed(invalidFields(parsed.error, app.locale), post);
      body = parsed.data;
    }
    const input = { params: params?.data, query: query?.data, body } as InputOf<I>;
    // Cookies the use case had issued (a new visitor's), carried by the page's answer.
    const issued: string[] = [];
    let answer: Answer;
    let result: Result;
    try {
      const uploaded = options.uploads ? await options.uploads(post) : undefined;
      const key = post.form.get("idempotency_key");
      const services: OperationServices = {
        db: app.db,
        now: () => app.now(),
        locale: app.locale,
        idempotencyKey: typeof key === "string" ? key : undefined,
        visitor: lazyVisitor(
          app.viewer,
          () => app.cookies[visitorCookieName],
          app.secure,
          (cookie) => issued.push(cookie),
        ),
        origin: new URL(post.request.url).origin,
        client: { address: app.client?.ip ?? "", userAgent: app.client?.userAgent ?? "", secure: app.secure },
        cookie: (name) => app.cookies[name],
        // A page answers with its own status (a redirect, the form again); cookies go on that answer.
        answer: { setCookie: (...values) => issued.push(...values), status: () => {} },
        settings: app.settings,
        ...(uploaded ? { uploaded } : {}),
      };
      result = await runOperation(
        operation,
        services,
        app.viewer,
        input,
        (error) => console.error(`${operation.name} failed`, error),
        operation.writes ?? true,
      );
      answer = operation.present(result, { viewer: app.viewer, locale: app.locale });
    } catch (error) {
      if (!(error instanceof AppError) || errorScreen(error)) throw error;
      return failed(failureOf(error, app.locale), post);
    }
    try {
      return withCookies(await options.done(answer, post, { input, result }), issued);
    } catch (error) {
      throw withCookies(error, issued);
    }
  };
  return handler as FormHandler<Awaited<Done> | Awaited<Failed>>;
}

/** A page answer (returned or thrown: a redirect) with these Set-Cookie headers added; anything else as it is. */
function withCookies<T>(answer: T, cookies: readonly string[]): T {
  if (cookies.length === 0) return answer;
  if (answer instanceof Response) for (const cookie of cookies) answer.headers.append("Set-Cookie", cookie);
  else if (isDataWithInit(answer)) {
    const headers = new Headers(answer.init?.headers);
    for (const cookie of cookies) headers.append("Set-Cookie", cookie);
    answer.init = { ...answer.init, headers };
  }
  return answer;
}

function isDataWithInit(value: unknown): value is { type: "DataWithResponseInit"; init: ResponseInit | null } {
  return typeof value === "object" && value !== null && (value as { type?: unknown }).type === "DataWithResponseInit";
}

/** For buttons without fields (join, delete): every refusal is the error screen, as a page the form cannot explain. */
export const failuresOnErrorScreen = {
  errorScreen: () => true,
  failed: (failure: FormFailure): never => {
    throw new AppError(failure.code as ErrorCode);
  },
};

/** An AppError as a form shows it. */
export function failureOf(error: AppError, locale: Locale): FormFailure {
  const body = presentError(error, locale);
  const details = error.details ? { details: error.details } : {};
  return body.fields
    ? { fieldErrors: body.fields, code: error.code, status: error.status, ...details }
    : { formError: body.message, code: error.code, status: error.status, ...details };
}

function invalidFields(error: z.ZodError, locale: Locale): FormFailure {
  const t = translator(locale);
  const fieldErrors: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? "form");
    const key = issue.message.includes(":") && !issue.message.includes(" ") ? issue.message : "validation:invalid_value";
    fieldErrors[field] ??= t(key);
  }
  return { fieldErrors, code: "validation_failed", status: 400 };
}

/**
 * Route-level intent dispatch: the handler named by the form's `intent` answers; an unknown or
 * missing intent is a 400.
 */
export async function dispatchIntent<H extends Record<string, FormHandler>>(
  post: FormPost,
  handlers: H,
): Promise<Awaited<ReturnType<H[keyof H]>>> {
  const intent = post.form.get("intent");
  const handler = typeof intent === "string" && Object.hasOwn(handlers, intent) ? handlers[intent] : undefined;
  if (!handler) throw new AppError("bad_request");
  return (await handler(post)) as Awaited<ReturnType<H[keyof H]>>;
}

type FieldKind = "string" | "number" | "boolean" | "array" | "unknown";

/** The kind of value a schema wants, looking through optional, nullable, default, pipes and transforms. */
function kindOf(schema: z.core.$ZodType): { kind: FieldKind; element?: FieldKind } {
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string };
  switch (def.type) {
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "catch":
    case "readonly":
    case "nonoptional":
      return kindOf(def.innerType as z.core.$ZodType);
    case "pipe": {
      const inner = kindOf(def.in as z.core.$ZodType);
      return inner.kind === "unknown" ? kindOf(def.out as z.core.$ZodType) : inner;
    }
    case "number":
    case "int":
    case "bigint":
      return { kind: "number" };
    case "boolean":
      return { kind: "boolean" };
    case "array":
      return { kind: "array", element: kindOf(def.element as z.core.$ZodType).kind };
    case "string":
    case "enum":
    case "literal":
    case "template_literal":
      return { kind: "string" };
    default:
      return { kind: "unknown" };
  }
}

function fieldValue(kind: FieldKind, text: string): unknown {
  if (kind !== "number") return text;
  // Digits (and a sign or decimals) become a number; anything else stays text and fails the schema's own message.
  return /^-?\d+(\.\d+)?$/.test(text.trim()) ? Number(text) : text;
}

/**
 * A form read by a body schema: each field of the object by its name, numbers from their digits,
 * checkboxes as booleans (present and not "0"/"false"/"off"), lists from repeated fields; an empty
 * number field is left out. The schema then parses the result exactly as it parses a JSON body.
 */
export function formInput(schema: z.ZodType, form: FormData): Record<string, unknown> {
  let def = schema._zod.def as unknown as { type: string; shape?: Record<string, z.core.$ZodType>; innerType?: z.core.$ZodType };
  // An optional or nullable body (`z.strictObject({}).nullish()`) is read by its object.
  while (def.innerType && ["optional", "nullable", "default", "prefault", "readonly"].includes(def.type))
    def = def.innerType._zod.def as unknown as typeof def;
  const shape = def.type === "object" ? def.shape : undefined;
  if (!shape) return Object.fromEntries([...form].filter((entry): entry is [string, string] => typeof entry[1] === "string"));
  const values: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(shape)) {
    const { kind, element } = kindOf(field);
    if (kind === "array") {
      values[name] = form
        .getAll(name)
        .filter((value): value is string => typeof value === "string")
        .map((value) => fieldValue(element ?? "string", value));
      continue;
    }
    const value = form.get(name);
    if (kind === "boolean") {
      values[name] = typeof value === "string" && !["0", "false", "off"].includes(value);
      continue;
    }
    if (typeof value !== "string") continue;
    if (kind === "number" && value.trim() === "") continue;
    values[name] = fieldValue(kind, value);
  }
  return values;
}
