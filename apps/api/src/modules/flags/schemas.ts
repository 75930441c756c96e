import { Type, type Static } from 'typebox';
import { VariationTypeSchema } from '@showroom/contracts/flags-admin';
import { SUPPORTED_OPERATORS } from './flagging-core.js';

// ── precompute-assignments (the wire format of @datadog/openfeature-browser) ──

export const PrecomputeQuerySchema = Type.Object({
  dd_env: Type.Optional(
    Type.String({ maxLength: 200, description: 'Environment name echoed in the answer' }),
  ),
});

export const PrecomputeRequestSchema = Type.Object({
  data: Type.Object({
    type: Type.Literal('precompute-assignments-request'),
    attributes: Type.Object({
      env: Type.Optional(Type.Object({ dd_env: Type.Optional(Type.String({ maxLength: 200 })) })),
      source: Type.Optional(
        Type.Object({
          sdk_name: Type.Optional(Type.String({ maxLength: 100 })),
          sdk_version: Type.Optional(Type.String({ maxLength: 100 })),
        }),
      ),
      subject: Type.Object({
        targeting_key: Type.Optional(
          Type.String({
            maxLength: 512,
            description:
              'The subject the assignments are for. Empty or absent: no targeting key, so flags that need one to assign (a split with shards) are left out, as flagging-core answers TARGETING_KEY_MISSING for them',
          }),
        ),
        targeting_attributes: Type.Optional(
          Type.Record(Type.String(), Type.String({ maxLength: 4096 }), {
            maxProperties: 200,
            description:
              'The evaluation context; every value a string, numbers and booleans JSON-stringified ("12", "true", "null")',
          }),
        ),
      }),
    }),
  }),
});
export type PrecomputeRequest = Static<typeof PrecomputeRequestSchema>;

export const PrecomputedFlagSchema = Type.Object({
  allocationKey: Type.String(),
  variationKey: Type.String(),
  variationType: VariationTypeSchema,
  variationValue: Type.Unknown({ description: 'Boolean, string, number or JSON object' }),
  reason: Type.String({ description: 'TARGETING_MATCH, SPLIT, STATIC or DEFAULT' }),
  doLog: Type.Boolean({ description: 'Whether the provider logs an exposure for it' }),
  extraLogging: Type.Record(Type.String(), Type.Unknown()),
});

export const PrecomputeResponseSchema = Type.Object({
  data: Type.Object({
    id: Type.String({ description: 'The targeting key' }),
    type: Type.Literal('precomputed-assignments'),
    attributes: Type.Object({
      createdAt: Type.Integer({
        description: 'Configuration version, epoch ms; changes on every flag change',
      }),
      environment: Type.Object({ name: Type.String() }),
      flags: Type.Record(Type.String(), PrecomputedFlagSchema, {
        description:
          'Assigned flags only: a flag without assignment is absent (FLAG_NOT_FOUND → default)',
      }),
    }),
  }),
});
export type PrecomputeResponse = Static<typeof PrecomputeResponseSchema>;

/** JSON:API errors, the shape the provider reads: `Failed to fetch flag configuration: <detail>`. */
export const JsonApiErrorsSchema = Type.Object({
  errors: Type.Array(
    Type.Object({
      status: Type.String(),
      title: Type.String(),
      detail: Type.String(),
      source: Type.Optional(Type.Object({ pointer: Type.String() })),
    }),
  ),
});
export type JsonApiErrors = Static<typeof JsonApiErrorsSchema>;

// ── operator api ──

export const FlagKeyParamsSchema = Type.Object({
  key: Type.String({ minLength: 1, maxLength: 200, description: 'Flag key' }),
});

export const OperatorHeadersSchema = Type.Object({
  'x-operator': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'Who makes the change (audit); "anonymous" when absent',
    }),
  ),
});

export const SetEnabledBodySchema = Type.Object({
  enabled: Type.Boolean({ description: 'false is the kill switch: nobody gets an assignment' }),
});

export const SetRolloutBodySchema = Type.Object({
  allocationKey: Type.String({ minLength: 1, maxLength: 200 }),
  percentage: Type.Number({
    minimum: 0,
    maximum: 100,
    description:
      'Share of the subjects passing the allocation rules that it takes, in 0.01 % steps',
  }),
});

export const RuleConditionInputSchema = Type.Object({
  attribute: Type.String({ minLength: 1, maxLength: 100 }),
  operator: Type.Union(
    SUPPORTED_OPERATORS.map((operator) => Type.Literal(operator)),
    { description: 'UFC operator understood by the evaluator' },
  ),
  value: Type.Unknown({
    description:
      'ONE_OF/NOT_ONE_OF: array of strings; GT/GTE/LT/LTE: number; MATCHES/NOT_MATCHES: regular expression; IS_NULL: boolean',
  }),
});

export const SetRulesBodySchema = Type.Object({
  allocationKey: Type.String({ minLength: 1, maxLength: 200 }),
  rules: Type.Array(
    Type.Object({
      conditions: Type.Array(RuleConditionInputSchema, { minItems: 1, maxItems: 20 }),
    }),
    {
      maxItems: 20,
      description:
        'A subject passes when any rule matches (all of its conditions); [] lets everyone in',
    },
  ),
});

export const AuditQuerySchema = Type.Object({
  flag: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Only this flag' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 100 })),
});
