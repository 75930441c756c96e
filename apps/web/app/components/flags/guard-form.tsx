import { useEffect, useId, useRef, useState } from 'react';
import { Form } from 'react-router';
import type { FlagView } from '@showroom/contracts/flags-admin';
import type { GuardState } from '@showroom/contracts/guards';
// Constants only: the schema module (guards.ts) would grow the shop's shared typebox chunk
// (apps/web/bundle-budget.json); the api checks the guard against the schema.
import {
  GUARD_ACTIONS,
  GUARD_CHECK_EVERY_DEFAULT_MS,
  GUARD_CHECK_EVERY_MAX_MS,
  GUARD_CHECK_EVERY_MIN_MS,
  GUARD_ERROR_MAX_LENGTH,
  GUARD_HOLD_MAX_MS,
  GUARD_METRIC_FIELDS,
  GUARD_METRIC_KINDS,
  GUARD_MIN_SESSIONS_MAX,
  GUARD_NAME_MAX_LENGTH,
  type GuardAction,
  type GuardMetricKind,
} from '@showroom/contracts/guard-constants';
import {
  GUARD_INPUTS,
  formatSteps,
  guardInputOfField,
  type GuardInputName,
} from '../../lib/flags-admin';

/** The api's refusal of the flag's last guard change, as the flags page's action answered it. */
export interface GuardFormOutcome {
  error: string;
  field: string | null;
}

const ACTION_LABELS: Record<GuardAction, string> = {
  rollback: 'Roll back to 0 %',
  hold: 'Hold the rollout',
};

const METRIC_HINTS: Record<GuardMetricKind, string> = {
  'action-error-rate': 'failures / (failures + actions); margin as a fraction, 0.05 = 5 points',
  'js-errors-per-session': 'browser errors per session; margin in errors per session',
  'p75-lcp': "75th percentile LCP of the page's views; margin in ms",
  'payment-decline-rate': 'declined / attempted orders; margin as a fraction, 0.05 = 5 points',
};

/** Numbers separated by commas or spaces; their range and order are the api's to check. */
const STEPS_PATTERN = String.raw`\s*\d+(\.\d+)?(\s*,?\s*\d+(\.\d+)?)*\s*`;

/** Whole seconds of a contract limit given in ms (the form asks for times in seconds). */
const seconds = (ms: number) => Math.floor(ms / 1000);

/**
 * Creates, replaces and removes a flag's guard (docs/decisions/019-guarded-rollouts.md) through
 * the flags page's action, like the page's other operator changes: `PUT /flags/{key}/guard`
 * and `DELETE /flags/{key}/guard`. The browser checks what the contract's constants allow; the
 * api checks the rest against the flag and its 400 names the field, shown here and marked on
 * the input.
 */
export function GuardForm({
  flag,
  guard,
  busy,
  outcome,
}: {
  flag: FlagView;
  guard?: GuardState | undefined;
  busy: boolean;
  /** The api's refusal of this flag's last guard change, if any. */
  outcome?: GuardFormOutcome | undefined;
}) {
  const id = useId();
  const errorId = `${id}-error`;
  const formRef = useRef<HTMLDivElement>(null);
  const definition = guard?.definition;
  const initialAllocation =
    definition?.allocation ??
    (
      flag.allocations.find((entry) => entry.rules.length === 0 && entry.splits.length > 0) ??
      flag.allocations[0]
    )?.key ??
    '';
  const [kind, setKind] = useState<GuardMetricKind>(
    definition?.metric.kind ?? 'js-errors-per-session',
  );
  const variations = flag.variations.map((variation) => variation.key);
  const treatment =
    definition?.treatment ??
    flag.allocations.find((entry) => entry.key === initialAllocation)?.splits[0]?.variationKey ??
    variations[0];
  const control = definition?.control ?? variations.find((key) => key !== treatment);
  const invalid = guardInputOfField(outcome?.field ?? undefined);
  const metricFields = GUARD_METRIC_FIELDS[kind];

  // A refused change moves focus to the field the api named (or the message), as the account
  // forms do, so a keyboard or screen-reader user lands on what to correct.
  useEffect(() => {
    if (!outcome) return;
    const root = formRef.current;
    (
      root?.querySelector<HTMLElement>('[aria-invalid="true"]') ??
      root?.querySelector<HTMLElement>('[role="alert"]')
    )?.focus();
  }, [outcome]);

  /** Name, id and error state of one input; `hint` is the id of its hint, if it has one. */
  const field = (name: GuardInputName, hint?: string) => {
    const describedBy = [hint, invalid === name ? errorId : undefined].filter(Boolean).join(' ');
    return {
      name,
      id: `${id}-${name}`,
      'aria-invalid': invalid === name ? true : undefined,
      'aria-describedby': describedBy || undefined,
    };
  };

  return (
    <div className="guard-form" data-testid="guard-form" ref={formRef}>
      {outcome ? (
        <p className="form-error" role="alert" id={errorId} tabIndex={-1} data-testid="guard-error">
          {flag.key}: {outcome.error}
        </p>
      ) : null}
      {guard ? (
        <Form method="post" preventScrollReset className="inline-form">
          <input type="hidden" name="flag" value={flag.key} />
          <input type="hidden" name="intent" value="remove-guard" />
          <button type="submit" className="button button--small" disabled={busy}>
            Remove guard
          </button>
          <span className="muted">the rollout stays where it is</span>
        </Form>
      ) : null}
      <details open={outcome ? true : undefined}>
        <summary>{guard ? 'Replace the guard' : 'Add a guard'}</summary>
        <Form method="post" preventScrollReset className="guard-form__fields">
          <input type="hidden" name="flag" value={flag.key} />
          <input type="hidden" name="intent" value="guard" />
          <label htmlFor={`${id}-${GUARD_INPUTS.allocation}`}>Allocation</label>
          <select {...field(GUARD_INPUTS.allocation)} defaultValue={initialAllocation} required>
            {flag.allocations.map((allocation) => (
              <option key={allocation.key} value={allocation.key}>
                {allocation.key}
              </option>
            ))}
          </select>

          <label htmlFor={`${id}-${GUARD_INPUTS['metric.kind']}`}>Metric</label>
          <div>
            <select
              {...field(GUARD_INPUTS['metric.kind'], `${id}-metric-hint`)}
              value={kind}
              onChange={(event) => setKind(event.target.value as GuardMetricKind)}
            >
              {GUARD_METRIC_KINDS.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>{' '}
            <span className="muted" id={`${id}-metric-hint`}>
              {METRIC_HINTS[kind]}
            </span>
          </div>

          {metricFields.required.includes('action') || metricFields.optional.includes('action') ? (
            <>
              <label htmlFor={`${id}-${GUARD_INPUTS['metric.action']}`}>Action</label>
              <input
                {...field(GUARD_INPUTS['metric.action'])}
                defaultValue={definition?.metric.action ?? ''}
                placeholder="place order"
                maxLength={GUARD_NAME_MAX_LENGTH}
                required={metricFields.required.includes('action')}
              />
            </>
          ) : null}
          {metricFields.required.includes('error') || metricFields.optional.includes('error') ? (
            <>
              <label htmlFor={`${id}-${GUARD_INPUTS['metric.error']}`}>Error message</label>
              <input
                {...field(GUARD_INPUTS['metric.error'], `${id}-error-hint`)}
                defaultValue={definition?.metric.error ?? ''}
                maxLength={GUARD_ERROR_MAX_LENGTH}
                required={metricFields.required.includes('error')}
              />
              <span className="muted guard-form__hint" id={`${id}-error-hint`}>
                optional: without it every error counts as a failure
              </span>
            </>
          ) : null}
          {metricFields.required.includes('page') || metricFields.optional.includes('page') ? (
            <>
              <label htmlFor={`${id}-${GUARD_INPUTS['metric.page']}`}>Page</label>
              <input
                {...field(GUARD_INPUTS['metric.page'])}
                defaultValue={definition?.metric.page ?? ''}
                placeholder="/checkout"
                pattern="/.*"
                title="A path, starting with /"
                maxLength={GUARD_NAME_MAX_LENGTH}
                required={metricFields.required.includes('page')}
              />
            </>
          ) : null}

          <label htmlFor={`${id}-${GUARD_INPUTS.control}`}>Control</label>
          <select {...field(GUARD_INPUTS.control)} defaultValue={control} required>
            {variations.map((key) => (
              <option key={key} value={key}>
                {key}
              </option>
            ))}
          </select>
          <label htmlFor={`${id}-${GUARD_INPUTS.treatment}`}>Treatment</label>
          <select {...field(GUARD_INPUTS.treatment)} defaultValue={treatment} required>
            {variations.map((key) => (
              <option key={key} value={key}>
                {key}
              </option>
            ))}
          </select>

          <label htmlFor={`${id}-${GUARD_INPUTS.margin}`}>Margin</label>
          <div>
            <input
              {...field(GUARD_INPUTS.margin, `${id}-margin-hint`)}
              type="number"
              min={0}
              step="any"
              defaultValue={definition?.margin ?? 0.05}
              required
            />{' '}
            <span className="muted" id={`${id}-margin-hint`}>
              trips when treatment − control is above it
            </span>
          </div>
          <label htmlFor={`${id}-${GUARD_INPUTS.minSessions}`}>Minimum sessions</label>
          <div>
            <input
              {...field(GUARD_INPUTS.minSessions, `${id}-sessions-hint`)}
              type="number"
              min={1}
              max={GUARD_MIN_SESSIONS_MAX}
              step={1}
              defaultValue={definition?.minSessions ?? 30}
              required
            />{' '}
            <span className="muted" id={`${id}-sessions-hint`}>
              of each variant before it may trip
            </span>
          </div>
          <label htmlFor={`${id}-${GUARD_INPUTS.action}`}>On trip</label>
          <select
            {...field(GUARD_INPUTS.action)}
            defaultValue={definition?.action ?? 'rollback'}
            required
          >
            {GUARD_ACTIONS.map((action) => (
              <option key={action} value={action}>
                {ACTION_LABELS[action]}
              </option>
            ))}
          </select>

          <label htmlFor={`${id}-${GUARD_INPUTS.steps}`}>Steps (%)</label>
          <div>
            <input
              {...field(GUARD_INPUTS.steps, `${id}-steps-hint`)}
              defaultValue={formatSteps(definition?.steps)}
              placeholder="5, 25, 50, 100"
              inputMode="decimal"
              pattern={STEPS_PATTERN}
              title="Percentages separated by commas, e.g. 5, 25, 50, 100"
            />{' '}
            <span className="muted" id={`${id}-steps-hint`}>
              optional, rising; the rollout starts at the first at once
            </span>
          </div>
          <label htmlFor={`${id}-${GUARD_INPUTS.holdMs}`}>Hold time (s)</label>
          <div>
            <input
              {...field(GUARD_INPUTS.holdMs, `${id}-hold-hint`)}
              type="number"
              min={0}
              max={seconds(GUARD_HOLD_MAX_MS)}
              step={1}
              defaultValue={seconds(definition?.holdMs ?? 600_000)}
              required
            />{' '}
            <span className="muted" id={`${id}-hold-hint`}>
              at each step before the next
            </span>
          </div>
          <label htmlFor={`${id}-${GUARD_INPUTS.checkEveryMs}`}>Check every (s)</label>
          <input
            {...field(GUARD_INPUTS.checkEveryMs)}
            type="number"
            min={seconds(GUARD_CHECK_EVERY_MIN_MS)}
            max={seconds(GUARD_CHECK_EVERY_MAX_MS)}
            step={1}
            defaultValue={seconds(definition?.checkEveryMs ?? GUARD_CHECK_EVERY_DEFAULT_MS)}
            required
          />

          <p className="guard-form__submit">
            <button type="submit" className="button button--small" disabled={busy}>
              {guard ? 'Replace guard' : 'Create guard'}
            </button>
          </p>
        </Form>
      </details>
    </div>
  );
}
