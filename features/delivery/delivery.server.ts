import type { DeliveryChannel } from "../verification/constants.ts";
import { DeliveryError, type Delivery, type OutgoingMessage } from "./message.ts";
import type { MailSender } from "./mail.server.ts";
import { httpSmsGateway, type SmsProvider } from "./sms.server.ts";
import { outboxFolder, writeToOutbox } from "./outbox.server.ts";

export interface DeliverySettings {
  dataDir: string;
  /** `SMTP_URL`; without it mail goes to the dev outbox. */
  smtpUrl?: string;
  /** `MAIL_FROM`: the sender of every mail. */
  mailFrom: string;
  /** `SMS_URL`; without it text messages go to the dev outbox. */
  smsUrl?: string;
  /** Replaces the transports (tests). */
  mailSender?: MailSender;
  smsProvider?: SmsProvider;
  /** Told where an outbox message was written (the server logs it). */
  onOutbox?: (file: string, message: OutgoingMessage) => void;
}

/**
 * Mail through SMTP, SMS through the HTTP gateway; a channel without configuration writes to the
 * dev outbox (`DATA_DIR/outbox/`), so every flow works on a fresh install.
 */
export function createDelivery(settings: DeliverySettings): Delivery {
  const mail = settings.mailSender ?? (settings.smtpUrl ? lazySmtp(settings.smtpUrl, settings.mailFrom) : undefined);
  const sms = settings.smsProvider ?? (settings.smsUrl ? httpSmsGateway(settings.smsUrl) : undefined);
  const folder = outboxFolder(settings.dataDir);
  const transports: Delivery["transports"] = { email: mail ? "smtp" : "outbox", sms: sms ? "sms-gateway" : "outbox" };

  const toOutbox = async (message: OutgoingMessage) => {
    const file = await writeToOutbox(folder, message);
    settings.onOutbox?.(file, message);
  };
  const senders: Record<DeliveryChannel, (message: OutgoingMessage) => Promise<void>> = {
    email: mail ? (message) => mail({ to: message.to, subject: message.subject, text: message.text }) : toOutbox,
    sms: sms ? (message) => sms.send({ to: message.to, text: message.text }) : toOutbox,
  };
  return {
    transports,
    async send(message) {
      try {
        await senders[message.channel](message);
      } catch (error) {
        throw new DeliveryError(message.channel, transports[message.channel], error);
      }
    },
  };
}

/** nodemailer loads with the first mail, so servers (and tests) that send none do not pay for it. */
function lazySmtp(smtpUrl: string, from: string): MailSender {
  let sender: Promise<MailSender> | undefined;
  return async (mail) => {
    sender ??= import("./mail.server.ts").then((module) => module.smtpMailSender(smtpUrl, from));
    return (await sender)(mail);
  };
}
