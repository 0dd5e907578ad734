import { createTransport } from "nodemailer";

/** Sends one plain-text mail; resolves when the SMTP server accepted it. */
export type MailSender = (mail: { to: string; subject: string; text: string }) => Promise<void>;

/**
 * Mail over SMTP with nodemailer. `smtpUrl` is a connection URL such as
 * `smtps://user:password@smtp.example.com:465` or `smtp://smtp.example.com:587` (STARTTLS).
 */
export function smtpMailSender(smtpUrl: string, from: string): MailSender {
  // A mail server that does not answer must not hold a request for minutes (settings in the URL win).
  const transport = createTransport({ url: smtpUrl, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 }, { from });
  return async (mail) => {
    await transport.sendMail({ to: mail.to, subject: mail.subject, text: mail.text });
  };
}
