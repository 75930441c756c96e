import { Form } from 'react-router';
import { TARGETING_ATTRIBUTES } from '@showroom/contracts/targeting-attributes';
import type { FlagAllocation, FlagView } from '@showroom/contracts/flags-admin';
import type { GuardState } from '@showroom/contracts/guards';
import { RULE_OPERATORS, describeCondition } from '../../lib/flags-admin';
import { GuardForm, type GuardFormOutcome } from './guard-form';
import { GuardPanel } from './guard-panel';

/** One flag on the operator page: variations with live exposures, allocations and controls. */
export function FlagCard({
  flag,
  busy,
  guard,
  guardOutcome,
}: {
  flag: FlagView;
  busy: boolean;
  guard?: GuardState | undefined;
  /** The api's refusal of this flag's last guard change, shown by its guard form. */
  guardOutcome?: GuardFormOutcome | undefined;
}) {
  const maxExposures = Math.max(1, ...flag.variations.map((variation) => variation.exposures));
  return (
    <article
      className="flag-card"
      data-testid={`flag-${flag.key}`}
      aria-labelledby={`flag-${flag.key}-title`}
    >
      <header className="flag-card__header">
        <div>
          <h2 id={`flag-${flag.key}-title`}>
            <code>{flag.key}</code>
          </h2>
          <p className="muted">
            {flag.variationType} · revision {flag.revision} · {flag.exposures.total} exposures
          </p>
        </div>
        <Form method="post" className="flag-card__toggle">
          <input type="hidden" name="flag" value={flag.key} />
          <input type="hidden" name="intent" value={flag.enabled ? 'disable' : 'enable'} />
          <span
            className={flag.enabled ? 'status status--on' : 'status status--off'}
            data-testid="flag-status"
          >
            {flag.enabled ? 'On' : 'Off'}
          </span>
          <button type="submit" className="button button--small" disabled={busy}>
            {flag.enabled ? 'Turn off' : 'Turn on'}
          </button>
        </Form>
      </header>

      <table className="flag-card__variations">
        <thead>
          <tr>
            <th>Variant</th>
            <th>Value</th>
            <th>Exposures</th>
          </tr>
        </thead>
        <tbody>
          {flag.variations.map((variation) => (
            <tr key={variation.key} data-testid={`variant-${variation.key}`}>
              <td>{variation.key}</td>
              <td>
                <code>{JSON.stringify(variation.value)}</code>
              </td>
              <td>
                <span
                  className="bar"
                  style={{ width: `${(variation.exposures / maxExposures) * 100}%` }}
                />
                <span data-testid="exposures">{variation.exposures}</span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>

      <h3>Allocations</h3>
      <ol className="flag-card__allocations">
        {flag.allocations.map((allocation) => (
          <AllocationItem
            key={allocation.key}
            flagKey={flag.key}
            allocation={allocation}
            busy={busy}
          />
        ))}
      </ol>
      {guard ? <GuardPanel guard={guard} /> : null}
      {/* A new or replaced guard starts the form afresh from its definition. */}
      <GuardForm
        key={guard?.createdAt ?? 'none'}
        flag={flag}
        guard={guard}
        busy={busy}
        outcome={guardOutcome}
      />
    </article>
  );
}

function AllocationItem({
  flagKey,
  allocation,
  busy,
}: {
  flagKey: string;
  allocation: FlagAllocation;
  busy: boolean;
}) {
  const splits = allocation.splits
    .map((split) => `${split.variationKey} ${split.percentage}%`)
    .join(' / ');
  return (
    <li className="allocation" data-testid={`allocation-${allocation.key}`}>
      <p>
        <strong>{allocation.key}</strong> — {splits || 'no split'}
      </p>
      <p className="muted" data-testid="rules">
        {allocation.rules.length === 0
          ? 'Everyone'
          : allocation.rules
              .map((rule) => rule.conditions.map(describeCondition).join(' and '))
              .join(' — or — ')}
      </p>
      <div className="allocation__forms">
        <Form method="post" className="inline-form">
          <input type="hidden" name="flag" value={flagKey} />
          <input type="hidden" name="allocation" value={allocation.key} />
          <input type="hidden" name="intent" value="rollout" />
          <label>
            Rollout %{' '}
            <input
              name="percentage"
              type="number"
              min={0}
              max={100}
              step={0.01}
              defaultValue={allocation.rolloutPercentage}
              key={allocation.rolloutPercentage}
              aria-label={`Rollout percentage of ${allocation.key}`}
            />
          </label>
          <button type="submit" className="button button--small" disabled={busy}>
            Set rollout
          </button>
        </Form>
        <Form method="post" className="inline-form">
          <input type="hidden" name="flag" value={flagKey} />
          <input type="hidden" name="allocation" value={allocation.key} />
          <input type="hidden" name="intent" value="rules" />
          <select
            name="attribute"
            aria-label={`Rule attribute of ${allocation.key}`}
            defaultValue="team"
          >
            {TARGETING_ATTRIBUTES.map((attribute) => (
              <option key={attribute}>{attribute}</option>
            ))}
          </select>
          <select
            name="operator"
            aria-label={`Rule operator of ${allocation.key}`}
            defaultValue="ONE_OF"
          >
            {RULE_OPERATORS.map((operator) => (
              <option key={operator}>{operator}</option>
            ))}
          </select>
          <input
            name="value"
            placeholder="sales, support"
            aria-label={`Rule value of ${allocation.key}`}
          />
          <button type="submit" className="button button--small" disabled={busy}>
            Set rule
          </button>
          <button
            type="submit"
            name="intent"
            value="clear-rules"
            className="button button--small"
            disabled={busy}
          >
            Everyone
          </button>
        </Form>
      </div>
    </li>
  );
}
