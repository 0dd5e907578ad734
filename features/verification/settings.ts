import type { Delivery } from "../delivery/message.ts";
import "../accounts/settings.ts";

/* The site settings code operations read (`services.settings`), filled by the composition root. */

declare module "../../server/lib/operation.ts" {
  interface OperationSettings {
    /** Mail and SMS (or the dev outbox), for the codes. */
    delivery: Delivery;
    /** The time codes are checked against, when not the real one (tests move it instead of sleeping). */
    codeClock?: (() => Date) | undefined;
  }
}

export {};
