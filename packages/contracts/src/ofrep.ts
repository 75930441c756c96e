import { Type, type Static } from 'typebox';

// The OpenFeature Remote Evaluation Protocol (OFREP) as the flag service serves it: the request
// and answer shapes of POST /ofrep/v1/evaluate/flags/{key} and POST /ofrep/v1/evaluate/flags
// (open-feature/protocol, service/openapi.yaml), and the settings around them. What the service
// does where the protocol leaves room: docs/decisions/016-ofrep.md.

/** Where the evaluations live; OFREP providers append it to their base URL. */
export const OFREP_EVALUATE_PATH = '/ofrep/v1/evaluate/flags';

/** Comma-separated keys; when set, OFREP requests need one (X-API-Key or Authorization: Bearer). */
export const OFREP_API_KEYS_ENV = 'OFREP_API_KEYS';
/** OFREP requests a minute per client address before 429 + Retry-After. */
export const OFREP_RATE_LIMIT_ENV = 'OFREP_RATE_LIMIT_PER_MINUTE';
/**
 * Generous: the traffic generator's browsers (up to 64 sessions at once, traffic.ts) all reach
 * the api from the web server's address through its /api proxy.
 */
export const OFREP_RATE_LIMIT_PER_MINUTE = 1200;

/** Reads OFREP_API_KEYS: comma-separated, blanks ignored; none means the routes are open. */
export function parseOfrepApiKeys(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((key) => key.trim())
    .filter(Boolean);
}

export const OfrepContextSchema = Type.Object(
  {
    targetingKey: Type.Optional(
      Type.String({
        maxLength: 512,
        description:
          'The subject. Absent or empty: no targeting key, so a flag whose assignment needs one (a split with shards) answers TARGETING_KEY_MISSING',
      }),
    ),
  },
  {
    additionalProperties: true,
    maxProperties: 200,
    description:
      'The evaluation context: targetingKey plus the attributes targeting rules read, with their JSON types (numbers, booleans and null stay what they are)',
  },
);
export type OfrepContext = Static<typeof OfrepContextSchema>;

export const OfrepEvaluationRequestSchema = Type.Object({
  context: Type.Optional(OfrepContextSchema),
});
export type OfrepEvaluationRequest = Static<typeof OfrepEvaluationRequestSchema>;

export const OfrepMetadataSchema = Type.Record(
  Type.String(),
  Type.Union([Type.Boolean(), Type.String(), Type.Number()]),
  {
    description:
      'allocationKey, doLog (log an exposure when true) and variationType; extraLogging.<name> for the extra logging fields of the split',
  },
);
export type OfrepMetadata = Static<typeof OfrepMetadataSchema>;

export const OfrepEvaluationSuccessSchema = Type.Object({
  key: Type.String(),
  value: Type.Optional(
    Type.Unknown({
      description:
        'The assigned value. Absent when the subject has no assignment (flag disabled, no allocation matched): the code default of the caller applies (OFREP ADR 0006)',
    }),
  ),
  reason: Type.String({ description: 'STATIC, TARGETING_MATCH, SPLIT, DEFAULT or DISABLED' }),
  variant: Type.Optional(Type.String()),
  metadata: Type.Optional(OfrepMetadataSchema),
});
export type OfrepEvaluationSuccess = Static<typeof OfrepEvaluationSuccessSchema>;

export const OfrepEvaluationErrorCodeSchema = Type.Union([
  Type.Literal('PARSE_ERROR'),
  Type.Literal('TARGETING_KEY_MISSING'),
  Type.Literal('INVALID_CONTEXT'),
  Type.Literal('GENERAL'),
]);
export type OfrepEvaluationErrorCode = Static<typeof OfrepEvaluationErrorCodeSchema>;

export const OfrepEvaluationFailureSchema = Type.Object({
  key: Type.String(),
  errorCode: OfrepEvaluationErrorCodeSchema,
  errorDetails: Type.Optional(Type.String()),
});
export type OfrepEvaluationFailure = Static<typeof OfrepEvaluationFailureSchema>;

export const OfrepFlagNotFoundSchema = Type.Object({
  key: Type.String(),
  errorCode: Type.Literal('FLAG_NOT_FOUND'),
  errorDetails: Type.Optional(Type.String()),
});
export type OfrepFlagNotFound = Static<typeof OfrepFlagNotFoundSchema>;

export const OfrepBulkEvaluationSuccessSchema = Type.Object({
  flags: Type.Array(Type.Union([OfrepEvaluationSuccessSchema, OfrepEvaluationFailureSchema])),
});
export type OfrepBulkEvaluationSuccess = Static<typeof OfrepBulkEvaluationSuccessSchema>;

/**
 * Every other OFREP error (bulk 400, 401, 403, 429, 500): the bulk failure shape, with the flag's
 * key when the request named one.
 */
export const OfrepErrorSchema = Type.Object({
  key: Type.Optional(Type.String()),
  errorCode: Type.String(),
  errorDetails: Type.Optional(Type.String()),
});
export type OfrepError = Static<typeof OfrepErrorSchema>;
