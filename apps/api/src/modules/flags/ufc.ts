import { Type, type Static } from 'typebox';
import {
  UfcShardSchema,
  VARIATION_TYPES,
  VariationTypeSchema,
  type UfcShard,
  type VariationType,
} from '@showroom/contracts/flags-admin';

export { UfcShardSchema, VARIATION_TYPES, VariationTypeSchema, type UfcShard, type VariationType };

/**
 * Universal Flag Configuration (UFC), in the dialect `@datadog/flagging-core` reads: every shard
 * carries its own `totalShards`, JSON variations are objects, and rule operators are the
 * evaluator's names. Eppo's dialect differs (totalShards on the flag, JSON variations as
 * strings, GT/LT on versions): testdata/eppo-ufc/README.md.
 */

export const UfcConditionSchema = Type.Object({
  attribute: Type.String({ minLength: 1 }),
  operator: Type.String({ minLength: 1, description: 'MATCHES, ONE_OF, GTE, IS_NULL…' }),
  value: Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Array(Type.String())]),
});
export type UfcCondition = Static<typeof UfcConditionSchema>;

export const UfcRuleSchema = Type.Object({ conditions: Type.Array(UfcConditionSchema) });
export type UfcRule = Static<typeof UfcRuleSchema>;

export const UfcSplitSchema = Type.Object({
  variationKey: Type.String(),
  shards: Type.Array(UfcShardSchema),
  extraLogging: Type.Optional(Type.Record(Type.String(), Type.String())),
  serialId: Type.Optional(Type.Integer()),
});
export type UfcSplit = Static<typeof UfcSplitSchema>;

export const UfcAllocationSchema = Type.Object({
  key: Type.String({ minLength: 1 }),
  rules: Type.Optional(Type.Array(UfcRuleSchema)),
  startAt: Type.Optional(
    Type.String({ description: 'ISO 8601; the allocation applies from then' }),
  ),
  endAt: Type.Optional(Type.String({ description: 'ISO 8601; the allocation applies until then' })),
  splits: Type.Array(UfcSplitSchema),
  doLog: Type.Optional(Type.Boolean()),
});
export type UfcAllocation = Static<typeof UfcAllocationSchema>;

export const UfcVariationSchema = Type.Object({ key: Type.String(), value: Type.Unknown() });

export const UfcFlagSchema = Type.Object({
  key: Type.String({ minLength: 1 }),
  enabled: Type.Boolean(),
  variationType: VariationTypeSchema,
  variations: Type.Record(Type.String(), UfcVariationSchema),
  allocations: Type.Array(UfcAllocationSchema),
});
export type UfcFlag = Static<typeof UfcFlagSchema>;

/**
 * A UFC document around its flags. Only this is checked as a whole: each flag is checked on its
 * own (UfcFlagSchema), so one malformed flag does not take the others down.
 */
export const UfcDocumentSchema = Type.Object({
  createdAt: Type.Optional(Type.String()),
  format: Type.Optional(Type.String()),
  environment: Type.Optional(Type.Object({ name: Type.String() })),
  flags: Type.Record(Type.String(), Type.Unknown()),
});
export type UfcDocument = Static<typeof UfcDocumentSchema>;

/** A UFC document whose flags all passed their checks. */
export type UfcConfiguration = Omit<UfcDocument, 'flags'> & { flags: Record<string, UfcFlag> };

/**
 * Whether a variation value is of its flag's declared type, as flagging-core checks it (an
 * INTEGER must be a whole number JavaScript holds exactly).
 */
export function valueMatchesType(value: unknown, type: VariationType): boolean {
  switch (type) {
    case 'BOOLEAN':
      return typeof value === 'boolean';
    case 'STRING':
      return typeof value === 'string';
    case 'INTEGER':
      return Number.isSafeInteger(value);
    case 'NUMERIC':
      return typeof value === 'number' && Number.isFinite(value);
    case 'JSON':
      return typeof value === 'object' && value !== null;
  }
}

/**
 * Structural mistakes that make a flag meaningless: the loader skips such a flag.
 * Returns `path: problem` strings, e.g. `allocations.1.splits.0.variationKey: "blue" is not a variation`.
 */
export function structuralProblems(flag: UfcFlag): string[] {
  const problems: string[] = [];
  for (const [key, variation] of Object.entries(flag.variations)) {
    if (variation.key !== key) {
      problems.push(`variations.${key}.key: must equal its map key "${key}"`);
    }
  }
  const allocationKeys = new Set<string>();
  flag.allocations.forEach((allocation, a) => {
    if (allocationKeys.has(allocation.key)) {
      problems.push(`allocations.${a}.key: "${allocation.key}" is used twice`);
    }
    allocationKeys.add(allocation.key);
    allocation.splits.forEach((split, s) => {
      split.shards.forEach((shard, h) => {
        shard.ranges.forEach((range, r) => {
          if (range.start > range.end || range.end > shard.totalShards) {
            problems.push(
              `allocations.${a}.splits.${s}.shards.${h}.ranges.${r}: must satisfy 0 <= start <= end <= totalShards`,
            );
          }
        });
      });
    });
    for (const date of ['startAt', 'endAt'] as const) {
      const value = allocation[date];
      if (value !== undefined && Number.isNaN(Date.parse(value))) {
        problems.push(`allocations.${a}.${date}: "${value}" is not a date`);
      }
    }
  });
  return problems;
}
