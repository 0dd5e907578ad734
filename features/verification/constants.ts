/** What a verification code is for; a code is only good for its own purpose. */
export const verificationPurposes = ["sms_login", "password_reset", "login_without_puzzle"] as const;
export type VerificationPurpose = (typeof verificationPurposes)[number];

export const deliveryChannels = ["email", "sms"] as const;
export type DeliveryChannel = (typeof deliveryChannels)[number];

/** Spec sections 4 and 9, and the limits against abuse. */
export const codeLimits = {
  digits: 6,
  /** A code is valid for 5 minutes… */
  validSeconds: 5 * 60,
  /** …and another may be asked for after 1 minute. */
  resendSeconds: 60,
  /** Wrong tries per code; then it is spent. */
  maxAttempts: 5,
  /** Codes per recipient (email address or phone) in an hour, whatever their purpose. */
  perRecipientPerHour: 5,
  /** Codes asked for from one IP address in an hour. */
  perAddressPerHour: 20,
  /** A verified password-reset code gives a token for this long. */
  resetTokenSeconds: 10 * 60,
} as const;
