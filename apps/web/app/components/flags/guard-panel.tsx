import type { GuardState, VariantMetric } from '@showroom/contracts/guards';

const STATUS_LABEL: Record<GuardState['status'], string> = {
  watching: 'Watching',
  tripped: 'Tripped',
  'rolled-back': 'Rolled back',
  held: 'Held',
  completed: 'Completed',
};

/** A metric in its unit: rates as %, LCP in ms, errors per session with two decimals. */
function formatMetric(kind: GuardState['definition']['metric']['kind'], metric: VariantMetric) {
  if (metric.value === null) return '—';
  if (kind === 'p75-lcp') return `${Math.round(metric.value)} ms`;
  if (kind === 'js-errors-per-session') return metric.value.toFixed(2);
  return `${(metric.value * 100).toFixed(1)} %`;
}

/**
 * A flag's guarded rollout (docs/decisions/019-guarded-rollouts.md): its state, the step it is
 * at and the last check's metric per variant, as the api's checker left them.
 */
export function GuardPanel({ guard }: { guard: GuardState }) {
  const { definition, lastCheck } = guard;
  const metric = definition.metric;
  const steps = definition.steps;
  return (
    <section className="guard-panel" data-testid="guard" aria-label={`Guard of ${guard.flag}`}>
      <h3>
        Guard{' '}
        <span
          className={`status guard-status guard-status--${guard.status}`}
          data-testid="guard-status"
        >
          {STATUS_LABEL[guard.status]}
        </span>
      </h3>
      <p className="muted">
        {metric.kind}
        {metric.action ? ` of “${metric.action}”` : ''}
        {metric.page ? ` on ${metric.page}` : ''} · {definition.treatment} vs {definition.control} ·
        margin {definition.margin} · ≥ {definition.minSessions} sessions each · on trip:{' '}
        {definition.action === 'rollback' ? 'roll back' : 'hold'}
      </p>
      <p data-testid="guard-step">
        {steps
          ? `Step ${guard.currentStep + 1} of ${steps.length}: ${steps.join(' → ')} %`
          : 'No steps'}
        {guard.percentage === null ? '' : ` · rollout ${guard.percentage} %`}
        {guard.trippedAt === null ? '' : ` · tripped ${new Date(guard.trippedAt).toISOString()}`}
      </p>
      {lastCheck ? (
        <table className="flag-card__variations" data-testid="guard-check">
          <thead>
            <tr>
              <th>Variant</th>
              <th>{metric.kind}</th>
              <th>Sessions</th>
            </tr>
          </thead>
          <tbody>
            {(
              [
                [definition.control, lastCheck.control],
                [definition.treatment, lastCheck.treatment],
              ] as const
            ).map(([variant, value]) => (
              <tr key={variant}>
                <td>{variant}</td>
                <td>{formatMetric(metric.kind, value)}</td>
                <td>{value.sessions}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="muted">Not checked yet</p>
      )}
    </section>
  );
}
