import { Type, type Static } from 'typebox';

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
  /** The payment gateway did not answer; nothing was charged or changed. */
  'GATEWAY_ERROR',
  /** The same Idempotency-Key with a different order request. */
  'IDEMPOTENCY_KEY_REUSED',
  /** The first request with this Idempotency-Key is still running. */
  'IDEMPOTENCY_KEY_IN_USE',
  /** A rollout change on an allocation without a split. */
  'ALLOCATION_HAS_NO_SPLIT',
  /** Too many requests; retry later. */
  'RATE_LIMITED',
  /** Anything unexpected; details stay in the api's log. */
  'INTERNAL',
  /** The web server's /api proxy could not reach the api (answered with 502). */
  'API_UNREACHABLE',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

const ERROR_CODE_SET: ReadonlySet<string> = new Set(ERROR_CODES);

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && ERROR_CODE_SET.has(value);
}

/** Every api error answers this shape: `{"error":{"code","message","field"?}}`. */
export const ErrorResponseSchema = Type.Object(
  {
    error: Type.Object({
      code: Type.Enum(ERROR_CODES),
      message: Type.String(),
      field: Type.Optional(Type.String({ description: 'The request field at fault, as a path' })),
    }),
  },
  { $id: 'ErrorResponse', title: 'ErrorResponse' },
);
export type ErrorResponse = Static<typeof ErrorResponseSchema>;
export type ErrorBody = ErrorResponse['error'];
