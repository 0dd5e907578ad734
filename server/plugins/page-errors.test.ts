import { describe, expect, it } from "vitest";
import type { ServerBuild } from "react-router";
import { AppError } from "../../common/app-error.ts";
import { withDomainErrors } from "./page-errors.ts";

/** A build with one route whose loader and action throw what the test gives them. */
function buildThrowing(error: unknown): ServerBuild {
  const fail = async () => {
    throw error;
  };
  return {
    routes: { page: { id: "page", path: "page", module: { loader: fail, action: fail, default: () => null } } },
  } as unknown as ServerBuild;
}

async function thrownBy(build: ServerBuild, name: "loader" | "action", url: string): Promise<unknown> {
  const module = build.routes.page!.module as unknown as Record<string, (args: { request: Request }) => Promise<unknown>>;
  try {
    await module[name]!({ request: new Request(url) });
  } catch (thrown) {
    return thrown;
  }
  throw new Error("did not throw");
}

describe("domain errors in page loaders and actions", () => {
  it("renders a 403 with its localized message instead of a 500", async () => {
    const thrown = (await thrownBy(
      withDomainErrors(buildThrowing(new AppError("forbidden"))),
      "loader",
      "http://site/en/circles/5/settings",
    )) as { type: string; data: { code: string; message: string }; init: { status: number } };
    expect(thrown.type).toBe("DataWithResponseInit");
    expect(thrown.init.status).toBe(403);
    expect(thrown.data).toEqual({ code: "forbidden", message: "You are not allowed to do this." });
  });

  it("answers in the page's language and keeps each status (404 from an action)", async () => {
    const thrown = (await thrownBy(withDomainErrors(buildThrowing(new AppError("not_found"))), "action", "http://site/circles/5.data")) as {
      data: { message: string };
      init: { status: number };
    };
    expect(thrown.init.status).toBe(404);
    expect(thrown.data.message).toMatch(/[\u4e00-\u9fff]/);
  });

  it("keeps the status line Latin-1, so a Chinese message can become a real response", async () => {
    const thrown = (await thrownBy(withDomainErrors(buildThrowing(new AppError("bad_request"))), "action", "http://site/logout")) as {
      data: unknown;
      init: ResponseInit;
    };
    const response = Response.json(thrown.data, thrown.init);
    expect(response.status).toBe(400);
    expect(response.statusText).toBe("Bad Request");
  });

  it("sends a visitor to the login page and back (401)", async () => {
    const thrown = (await thrownBy(
      withDomainErrors(buildThrowing(new AppError("not_authenticated"))),
      "loader",
      "http://site/en/account/home.data?tab=1",
    )) as Response;
    expect(thrown.status).toBe(302);
    expect(thrown.headers.get("location")).toBe(`/en/login?next=${encodeURIComponent("/account/home?tab=1")}`);
  });

  it("leaves other errors (React Router's own throws, bugs) alone", async () => {
    const response = new Response(null, { status: 302, headers: { location: "/" } });
    expect(await thrownBy(withDomainErrors(buildThrowing(response)), "loader", "http://site/")).toBe(response);
    const bug = new TypeError("boom");
    expect(await thrownBy(withDomainErrors(buildThrowing(bug)), "loader", "http://site/")).toBe(bug);
  });
});
