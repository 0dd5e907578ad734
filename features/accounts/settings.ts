/* The site settings account operations read (`services.settings`), filled by the composition root. */

declare module "../../server/lib/operation.ts" {
  interface OperationSettings {
    /** Signs session-bound CSRF tokens and verification codes. */
    sessionSecret: string;
    /** Sign-in and sign-up ask for the slider puzzle (the CAPTCHA setting). */
    captcha: boolean;
    /** Accounts one address may create per hour. */
    signupsPerHour: number;
  }
}

export {};
