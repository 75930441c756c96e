/** Shapes of the api's operator flag routes (GET /flags; see the api's /docs). */
export interface FlagCondition {
  attribute: string;
  operator: string;
  value: unknown;
}

export interface FlagAllocation {
  key: string;
  rules: { conditions: FlagCondition[] }[];
  doLog: boolean;
  rolloutPercentage: number;
  splits: { variationKey: string; percentage: number }[];
}

export interface FlagView {
  key: string;
  enabled: boolean;
  variationType: string;
  variations: { key: string; value: unknown; exposures: number }[];
  allocations: FlagAllocation[];
  exposures: { total: number; byVariant: Record<string, number> };
  revision: number;
  updatedAt: number;
}

export interface FlagList {
  createdAt: number;
  environment: string;
  flags: FlagView[];
}

export interface AuditEntry {
  id: number;
  flagKey: string | null;
  action: string;
  operator: string;
  at: number;
}

/** Attributes of the evaluation context that targeting rules can use (docs/requirements.md §4). */
export const TARGETING_ATTRIBUTES = [
  'team',
  'useDiscount',
  'useNewCheckoutFlow',
  'browser',
  'user_id',
  'user_email',
  'user_name',
] as const;

export const RULE_OPERATORS = [
  'ONE_OF',
  'NOT_ONE_OF',
  'MATCHES',
  'NOT_MATCHES',
  'GT',
  'GTE',
  'LT',
  'LTE',
  'IS_NULL',
] as const;

/** Reads the rule editor's text field into the value the operator takes. */
export function parseRuleValue(operator: string, raw: string): unknown {
  const text = raw.trim();
  if (operator === 'ONE_OF' || operator === 'NOT_ONE_OF') {
    return text
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean);
  }
  if (['GT', 'GTE', 'LT', 'LTE'].includes(operator)) return text === '' ? Number.NaN : Number(text);
  if (operator === 'IS_NULL') return text.toLowerCase() !== 'false';
  return text;
}

export function describeCondition(condition: FlagCondition): string {
  const value = Array.isArray(condition.value)
    ? condition.value.join(', ')
    : JSON.stringify(condition.value);
  return `${condition.attribute} ${condition.operator.replaceAll('_', ' ').toLowerCase()} ${value}`;
}
