import { createServer as createHttpServer, type IncomingHttpHeaders, type Server } from "node:http";
import { createServer as createTcpServer, type Server as TcpServer } from "node:net";
import { rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, Visitor, type TestApi } from "../../tests/support/api.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { createUser } from "../../tests/support/factories.ts";
import { lastMessageTo, outboxMessages } from "../../tests/support/outbox.ts";
import { loadConfig } from "../../server/config.ts";

/** A stand-in SMS gateway on this machine: records what it is sent and answers `status`. */
async function smsGateway(status: () => number) {
  const received: { headers: IncomingHttpHeaders; body: string; url: string }[] = [];
  const server: Server = createHttpServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      received.push({ headers: request.headers, body, url: request.url ?? "" });
      response.writeHead(status(), { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return { received, port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** The smallest SMTP server nodemailer will talk to: accepts every mail and keeps its data. */
async function smtpSink() {
  const mails: string[] = [];
  const server: TcpServer = createTcpServer((socket) => {
    let buffer = "";
    let inData = false;
    let data = "";
    socket.write("220 sink ready\r\n");
    socket.on("data", (chunk) => {
      buffer += chunk.toString("utf8");
      let end: number;
      while ((end = buffer.indexOf("\r\n")) >= 0) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (inData) {
          if (line === ".") {
            inData = false;
            mails.push(data);
            data = "";
            socket.write("250 queued\r\n");
          } else data += `${line}\n`;
        } else if (/^(EHLO|HELO)/i.test(line)) socket.write("250-sink\r\n250 8BITMIME\r\n");
        else if (/^DATA/i.test(line)) {
          inData = true;
          socket.write("354 go on\r\n");
        } else if (/^QUIT/i.test(line)) socket.end("221 bye\r\n");
        else socket.write("250 ok\r\n");
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return { mails, port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe("the outbox page's switch", () => {
  const page = (env: Record<string, string>) => loadConfig({ DATA_DIR: tmpdir(), SESSION_SECRET: "x", ...env }).devOutboxPage;
  it("is on outside production, and in production only for a demo with neither SMTP nor SMS", () => {
    expect(page({})).toBe(true);
    expect(page({ NODE_ENV: "development", SMTP_URL: "smtp://mail.example.com" })).toBe(true);
    expect(page({ NODE_ENV: "production" })).toBe(false);
    expect(page({ NODE_ENV: "production", DEV_OUTBOX: "on" })).toBe(true);
    expect(page({ NODE_ENV: "production", DEV_OUTBOX: "on", SMTP_URL: "smtp://mail.example.com" })).toBe(false);
    expect(page({ NODE_ENV: "production", DEV_OUTBOX: "on", SMS_URL: "https://sms.example.com/send" })).toBe(false);
  });
});

describe.each(databaseKinds)("mail and SMS delivery on %s", (kind) => {
  const visitor = (api: TestApi, lang = "en") => new Visitor(api.app, { "accept-language": lang });

  describe("through an SMS gateway", () => {
    let status = 202;
    let gateway: Awaited<ReturnType<typeof smsGateway>>;
    let api: TestApi;
    beforeAll(async () => {
      gateway = await smsGateway(() => status);
      api = await createTestApi(kind, { env: { SMS_URL: `http://circles:s%40cret@127.0.0.1:${gateway.port}/v1/messages?channel=otp` } });
    });
    afterAll(async () => {
      await api.close();
      await gateway.close();
    });

    it("posts text messages as JSON { to, text }, credentials as Basic authorization", async () => {
      const response = await visitor(api).post("/api/Users/sms/send_code/", { phone: "+86 137 0000 1234" });
      expect(response.statusCode).toBe(200);
      expect(gateway.received).toHaveLength(1);
      const [request] = gateway.received;
      expect(request!.url).toBe("/v1/messages?channel=otp");
      expect(request!.headers["content-type"]).toBe("application/json");
      expect(request!.headers.authorization).toBe(`Basic ${Buffer.from("circles:s@cret").toString("base64")}`);
      const body = JSON.parse(request!.body);
      expect(Object.keys(body).sort()).toEqual(["text", "to"]);
      expect(body.to).toBe("+8613700001234");
      expect(body.text).toMatch(/^Your Circles sign-in code is \d{6}\. It is valid for 5 minutes\./);
      // Delivered for real: nothing goes to the dev outbox.
      expect(outboxMessages(api.dataDir)).toHaveLength(0);
    });

    it("answers SMS send failed when the gateway refuses, and a new code may be asked for at once", async () => {
      status = 500;
      const failed = await visitor(api).post("/api/Users/sms/send_code/", { phone: "13700001235" });
      expect(failed.statusCode).toBe(502);
      expect(failed.json()).toEqual({ code: "sms_send_failed", message: "SMS send failed. Please try again later." });
      expect((await visitor(api, "zh-CN").post("/api/Users/sms/send_code/", { phone: "13700001236" })).json().message).toBe(
        "短信发送失败，请稍后重试。",
      );
      status = 200;
      // The failed code reached nobody, so the one-minute wait does not apply to it.
      expect((await visitor(api).post("/api/Users/sms/send_code/", { phone: "13700001235" })).statusCode).toBe(200);
    });
  });

  // One app for mail over SMTP and for the dev outbox: its text messages have no gateway, so they go to the outbox.
  describe("through SMTP, with text messages in the dev outbox", () => {
    let smtp: Awaited<ReturnType<typeof smtpSink>>;
    let api: TestApi;
    beforeAll(async () => {
      smtp = await smtpSink();
      api = await createTestApi(kind, {
        env: { SMTP_URL: `smtp://127.0.0.1:${smtp.port}?ignoreTLS=true`, MAIL_FROM: "Circles <codes@circles.example>" },
      });
    });
    afterAll(() => api.close());

    it("sends mail with nodemailer", async () => {
      const user = await createUser(api.database.db);
      expect((await visitor(api).post("/api/Users/password_reset/send_code/", { email: user.email })).statusCode).toBe(200);
      expect(smtp.mails).toHaveLength(1);
      const mail = smtp.mails[0]!;
      expect(mail).toMatch(/^From: Circles <codes@circles\.example>$/m);
      expect(mail).toMatch(new RegExp(`^To: ${user.email!.replace(/[.]/g, "\\.")}$`, "m"));
      expect(mail).toMatch(/^Subject: Your Circles verification code$/m);
      expect(mail).toMatch(/Your Circles password reset code is \d{6}\./);
      expect(outboxMessages(api.dataDir)).toHaveLength(0);
    });

    it("answers email send failed when the mail server is gone, for known and unknown addresses alike", async () => {
      await smtp.close();
      const user = await createUser(api.database.db);
      const known = await visitor(api).post("/api/Users/password_reset/send_code/", { email: user.email });
      const unknown = await visitor(api).post("/api/Users/password_reset/send_code/", { email: "nobody@example.com" });
      expect(known.statusCode).toBe(502);
      expect(known.json()).toEqual({ code: "email_send_failed", message: "Email send failed. Please try again later." });
      expect(unknown.body).toBe(known.body);
    });

    it("lists it on /dev/outbox in development, escaped and never cached", async () => {
      expect((await visitor(api).get("/dev/outbox")).body).toContain("还没有消息。");
      await visitor(api).post("/api/Users/sms/send_code/", { phone: "13700001239" });
      const code = lastMessageTo(api.dataDir, "+8613700001239")!.code!;
      const page = await visitor(api).get("/en/dev/outbox");
      expect(page.statusCode).toBe(200);
      expect(page.headers["content-type"]).toBe("text/html; charset=utf-8");
      expect(page.headers["cache-control"]).toBe("no-store");
      expect(page.headers["content-security-policy"]).toContain("default-src 'none'");
      expect(page.body).toContain("<title>Dev outbox</title>");
      expect(page.body).toContain("+8613700001239");
      expect(page.body).toContain(`<td class="code">${code}</td>`);
      expect((await visitor(api).get("/dev/outbox")).body).toContain("<title>开发发件箱</title>");
    });

    it("answers Fail to send the verification code when the outbox cannot be written", async () => {
      rmSync(path.join(api.dataDir, "outbox"), { recursive: true, force: true });
      writeFileSync(path.join(api.dataDir, "outbox"), "a file where the folder should be");
      const response = await visitor(api).post("/api/Users/sms/send_code/", { phone: "13700001237" });
      expect(response.statusCode).toBe(502);
      expect(response.json()).toEqual({ code: "code_send_failed", message: "Fail to send the verification code." });
      expect((await visitor(api, "zh-CN").post("/api/Users/sms/send_code/", { phone: "13700001238" })).json().message).toBe(
        "验证码发送失败。",
      );
    });
  });
});
