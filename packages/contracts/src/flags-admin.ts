import { Type, type Static } from 'typebox';

// The flag service's operator api (GET /flags, PATCH /flags/{key}, …): what the /flags page and
// scripts read. The UFC pieces it shows (variation types, shards) are defined here once; the
// api's full UFC schema (apps/api/src/modules/flags/ufc.ts) builds on them.

export const VARIATION_TYPES = ['BOOLEAN', 'STRING', 'INTEGER', 'NUMERIC', 'JSON'] as const;
export type VariationType = (typeof VARIATION_TYPES)[number];

export const VariationTypeSchema = Type.Union(
  [
    Type.Literal('BOOLEAN'),
    Type.Literal('STRING'),
    Type.Literal('INTEGER'),
    Type.Literal('NUMERIC'),
    Type.Literal('JSON'),
  ],
  { description: 'UFC variation type' },
);

export const UfcShardRangeSchema = Type.Object({
  start: Type.Integer({ minimum: 0 }),
  end: Type.Integer({ minimum: 0 }),
});

export const UfcShardSchema = Type.Object({
  salt: Type.String(),
  totalShards: Type.Integer({ minimum: 1 }),
  ranges: Type.Array(UfcShardRangeSchema),
});
export type UfcShard = Static<typeof UfcShardSchema>;

const ExposureCountsSchema = Type.Object({
  total: Type.Integer({ minimum: 0 }),
  byVariant: Type.Record(Type.String(), Type.Integer({ minimum: 0 })),
});

export const FlagViewSchema = Type.Object(
  {
    key: Type.String(),
    enabled: Type.Boolean(),
    variationType: VariationTypeSchema,
    variations: Type.Array(
      Type.Object({
        key: Type.String(),
        value: Type.Unknown(),
        exposures: Type.Integer({ minimum: 0, description: 'Stored exposures of this variant' }),
      }),
    ),
    allocations: Type.Array(
      Type.Object({
        key: Type.String(),
        rules: Type.Array(
          Type.Object({
            conditions: Type.Array(
              Type.Object({
                attribute: Type.String(),
                operator: Type.String(),
                value: Type.Unknown(),
              }),
            ),
          }),
        ),
        startAt: Type.Optional(Type.String()),
        endAt: Type.Optional(Type.String()),
        doLog: Type.Boolean(),
        rolloutPercentage: Type.Number({ description: 'Share of matching subjects it assigns, %' }),
        splits: Type.Array(
          Type.Object({
            variationKey: Type.String(),
            percentage: Type.Number(),
            shards: Type.Array(UfcShardSchema),
            extraLogging: Type.Optional(Type.Record(Type.String(), Type.String())),
          }),
        ),
      }),
    ),
    exposures: ExposureCountsSchema,
    revision: Type.Integer(),
    updatedAt: Type.Integer(),
  },
  { title: 'FlagView' },
);
export type FlagView = Static<typeof FlagViewSchema>;

export const FlagListSchema = Type.Object({
  createdAt: Type.Integer({ description: 'Served configuration version, epoch ms' }),
  environment: Type.String(),
  flags: Type.Array(FlagViewSchema),
});

export const FlagChangeResultSchema = Type.Object({
  flag: FlagViewSchema,
  createdAt: Type.Integer({ description: 'Configuration version after the change' }),
  changed: Type.Boolean({ description: 'false when the flag already was so (nothing stored)' }),
});

export const AuditListSchema = Type.Object({
  entries: Type.Array(
    Type.Object({
      id: Type.Integer(),
      flagKey: Type.Union([Type.String(), Type.Null()]),
      action: Type.String({ description: 'enable, disable, rollout, rules, load, remove' }),
      operator: Type.String(),
      at: Type.Integer({ description: 'Epoch ms' }),
      before: Type.Unknown(),
      after: Type.Unknown(),
      configurationCreatedAt: Type.Integer(),
    }),
  ),
});

export type FlagList = Static<typeof FlagListSchema>;
export type FlagAllocation = FlagView['allocations'][number];
export type FlagCondition = FlagAllocation['rules'][number]['conditions'][number];
export type AuditEntry = Static<typeof AuditListSchema>['entries'][number];
