import { Form } from 'react-router';
import { changesFlagService, scenarioStartPath } from '@showroom/contracts/scenario-link';
import type { ScenarioRun, ScenarioView } from '@showroom/contracts/scenarios';

function describeChange(change: ScenarioView['flagChanges'][number]): string {
  const parts: string[] = [];
  if (change.rolloutPercentage !== undefined) {
    parts.push(`${change.allocation} to ${change.rolloutPercentage} %`);
  }
  if (change.enabled !== undefined) parts.push(change.enabled ? 'on' : 'off');
  for (const rule of change.rules ?? []) {
    const conditions = rule.conditions.map(
      (condition) =>
        `${condition.attribute} ${condition.operator} ${JSON.stringify(condition.value)}`,
    );
    parts.push(`only where ${conditions.join(' and ')}`);
  }
  return `${change.flag}: ${parts.join(', ')}`;
}

function describeRollout(rollout: NonNullable<ScenarioView['rollout']>): string {
  const steps = rollout.steps.map((step) => `${step} %`).join(' → ');
  return (
    `${rollout.flag} ${rollout.treatment} to ${steps}, each held ${rollout.holdMinutes} min; ` +
    `guard: ${rollout.metric.kind} worse than ${rollout.control} by > ${rollout.margin} ` +
    `(≥ ${rollout.minSessions} sessions each) → ${rollout.action}`
  );
}

function describeAutopilot(autopilot: NonNullable<ScenarioView['autopilot']>): string {
  const { profile } = autopilot;
  const range = ({ min, max }: { min: number; max: number }) =>
    min === max ? `${min}` : `${min}–${max}`;
  return (
    `after ${range(profile.quietMinutes)} min: ${profile.scenarios.join(', ')} ` +
    `for ${range(profile.faultMinutes)} min (seed ${autopilot.seed})`
  );
}

/** One scenario of the catalogue: what it shows and changes, its signal, Start and Stop. */
export function ScenarioCard({
  scenario,
  run,
  returnTo = '/scenarios',
}: {
  scenario: ScenarioView;
  run: ScenarioRun | null;
  returnTo?: string;
}) {
  const switches = Object.entries(scenario.switches);
  return (
    <article className="scenario-card" data-testid="scenario" data-scenario-id={scenario.id}>
      <header className="scenario-card__header">
        <h3>{scenario.title}</h3>
        {run ? (
          <span className="badge badge--running" data-testid="scenario-running">
            running since {new Date(run.startedAt).toISOString().slice(11, 16)} UTC
          </span>
        ) : null}
      </header>
      <p>{scenario.demonstrates}</p>
      <dl className="scenario-card__facts">
        {switches.length > 0 ? (
          <>
            <dt>Switches</dt>
            <dd>
              {switches.map(([key, value]) => (
                <code key={key}>
                  {key}={value}
                </code>
              ))}
            </dd>
          </>
        ) : null}
        {scenario.flagChanges.length > 0 ? (
          <>
            <dt>Flag changes</dt>
            <dd>
              {scenario.flagChanges.map((change) => (
                <code key={change.flag}>{describeChange(change)}</code>
              ))}
            </dd>
          </>
        ) : null}
        {scenario.rollout ? (
          <>
            <dt>Guarded rollout</dt>
            <dd data-testid="scenario-rollout">{describeRollout(scenario.rollout)}</dd>
          </>
        ) : null}
        {scenario.autopilot ? (
          <>
            <dt>Autopilot</dt>
            <dd data-testid="scenario-autopilot">{describeAutopilot(scenario.autopilot)}</dd>
          </>
        ) : null}
        <dt>Pages</dt>
        <dd>
          {scenario.pages.map((page) => (
            <code key={page}>{page}</code>
          ))}
        </dd>
        <dt>Signal</dt>
        <dd data-testid="scenario-signal">{scenario.signal.description}</dd>
      </dl>
      <div className="scenario-card__actions">
        {/* A document link: starting may change flags, then opens the page with its switches. */}
        <a
          className="button button--primary"
          href={scenarioStartPath(scenario.id)}
          data-testid="scenario-start"
        >
          Start
        </a>
        {changesFlagService(scenario) ? (
          <Form method="post" action="/scenarios">
            <input type="hidden" name="intent" value="stop" />
            <input type="hidden" name="id" value={scenario.id} />
            <input type="hidden" name="returnTo" value={returnTo} />
            <button type="submit" className="button" disabled={!run}>
              Stop
            </button>
          </Form>
        ) : null}
      </div>
    </article>
  );
}
