/**
 * Every `code` the api may answer in an error body. A closed set: the web decides what to show
 * from the code and the field, never from the message text (docs/architecture.md "Errors").
 */
export const ERROR_CODES = [
  /** A request field is missing or malformed; `field` names it. */
  'VALIDATION_ERROR',
  /** The request could not be read at all (broken JSON, a bad header). */
  'BAD_REQUEST',
  /** The body is larger than the route accepts. */
  'PAYLOAD_TOO_LARGE',
  /** The body's content type is not one the route reads. */
  'UNSUPPORTED_MEDIA_TYPE',
  'NOT_FOUND',
  /** PUT /session/shopper with an id that is in no sample shopper list. */
  'SHOPPER_NOT_FOUND',
  'OUT_OF_STOCK',
  /** A cart line would pass MAX_LINE_QUANTITY. */
  'QUANTITY_LIMIT',
  'CART_EMPTY',
  'CARD_DECLINED',
  /** The card's expiry date has passed; `field` names the expiry field. */
  'CARD_EXPIRED',
  /** The card number fails the check digit (Luhn). */
  'CARD_NUMBER_INVALID',
  /** The payment gateway did not answer; nothing was charged or changed. */
  'GATEWAY_ERROR',
  /** The same Idempotency-Key with a different order request. */
  'IDEMPOTENCY_KEY_REUSED',
  /** The first request with this Idempotency-Key is still running. */
  'IDEMPOTENCY_KEY_IN_USE',
  /** A rollout change on an allocation without a split. */
  'ALLOCATION_HAS_NO_SPLIT',
  /** Sign-up with an e-mail address an account already has; `field` is `email`. */
  'EMAIL_TAKEN',
  /** Sign-in with an unknown e-mail address or a wrong password (one answer for both). */
  'INVALID_CREDENTIALS',
  /** A verification code that does not match; `field` is `code`. */
  'CODE_INVALID',
  /** A verification code older than its ten minutes; ask for a new one. */
  'CODE_EXPIRED',
  /** Five wrong codes: this code is locked; ask for a new one. */
  'CODE_LOCKED',
  /** No sign-up or e-mail change is waiting for a code in this session. */
  'NO_PENDING_VERIFICATION',
  /** Already a member of the loyalty programme. */
  'ALREADY_MEMBER',
  /** Signed in: sign out before creating another account. */
  'ALREADY_SIGNED_IN',
  /** Too many requests; retry later (Retry-After says when). */
  'RATE_LIMITED',
  /**
   * A part of the shop is not answering right now (a fault flag aimed at this shopper,
   * docs/decisions/010-fault-flags.md); try again later.
   */
  'SERVICE_UNAVAILABLE',
  /**
   * The api cannot reach its database (stopped, restarting, unreachable): nothing was changed;
   * try again in a few seconds (Retry-After). The api recovers by itself when it returns.
   */
  'DATABASE_UNAVAILABLE',
  /**
   * A state-changing request (POST, PUT, PATCH, DELETE) from another site: its Origin is neither
   * the request's own origin nor an allowed one (docs/reliability.md "Security").
   */
  'CROSS_SITE_REQUEST',
  /** An operator route without `Authorization: Bearer <token>` while OPERATOR_TOKEN is set. */
  'OPERATOR_TOKEN_MISSING',
  /** An operator route with a token that is not OPERATOR_TOKEN. */
  'OPERATOR_TOKEN_INVALID',
  /**
   * The autopilot is not in a state the action applies to: start while it runs, pause when it
   * is not running, resume when it is not paused, stop when it is idle (decision 018).
   */
  'AUTOPILOT_STATE',
  /** The web server could not reach the api behind it (answered by the web's /api proxy). */
  'API_UNREACHABLE',
  /** Anything unexpected; details stay in the api's log. */
  'INTERNAL',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

const ERROR_CODE_SET: ReadonlySet<string> = new Set(ERROR_CODES);

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && ERROR_CODE_SET.has(value);
}
