import type { DeliveryChannel } from "../verification/constants.ts";

/** One mail or text message, as sent and as the dev outbox stores it. */
export interface OutgoingMessage {
  /** An email address or an E.164 phone number. */
  to: string;
  channel: DeliveryChannel;
  /** The mail's subject (an SMS shows no subject, but the outbox keeps it). */
  subject: string;
  text: string;
  /** The verification code the message carries, if any: the outbox lists it for development. */
  code: string | null;
}

/** Sends messages on whichever channel they name; throws DeliveryError when that fails. */
export interface Delivery {
  send(message: OutgoingMessage): Promise<void>;
  /** Where each channel goes: a real transport or the dev outbox. */
  readonly transports: Record<DeliveryChannel, "smtp" | "sms-gateway" | "outbox">;
}

/** A message could not be handed to its transport (or written to the outbox). */
export class DeliveryError extends Error {
  readonly channel: DeliveryChannel;
  readonly transport: "smtp" | "sms-gateway" | "outbox";
  constructor(channel: DeliveryChannel, transport: "smtp" | "sms-gateway" | "outbox", cause: unknown) {
    super(`${channel} delivery through ${transport} failed`, { cause });
    this.name = "DeliveryError";
    this.channel = channel;
    this.transport = transport;
  }
}
