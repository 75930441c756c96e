import { Link, useActionData, useNavigation } from 'react-router';
import type { Route } from './+types/flags';
import { FlagCard } from '../components/flags/flag-card';
import type { GuardFormOutcome } from '../components/flags/guard-form';
import { apiGet, apiSend } from '../lib/api.server';
import type { AuditEntry, FlagList } from '@showroom/contracts/flags-admin';
import type { GuardList } from '@showroom/contracts/guards';
import { guardBodyOfForm, parseRuleValue } from '../lib/flags-admin';
import { pageMeta } from '../lib/page-meta';

export function meta() {
  return pageMeta(
    'Feature flags',
    'The feature flags behind Showroom: their variations, who gets which, and recent changes.',
  );
}

export async function loader({ request }: Route.LoaderArgs) {
  const [list, audit, guards] = await Promise.all([
    apiGet<FlagList>('/flags', request),
    apiGet<{ entries: AuditEntry[] }>('/flags/audit?limit=15', request),
    // Guarded rollouts (docs/decisions/019-guarded-rollouts.md): each flag's guard state.
    apiGet<GuardList>('/guards', request),
  ]);
  return { list, audit: audit.entries, guards: guards.guards };
}

/** Every change goes through the api, which validates it, audits it and bumps createdAt. */
export async function action({ request }: Route.ActionArgs) {
  const form = await request.formData();
  const flag = String(form.get('flag') ?? '');
  const intent = String(form.get('intent') ?? '');
  const allocationKey = String(form.get('allocation') ?? '');
  const path = `/flags/${encodeURIComponent(flag)}`;
  const operator = { 'x-operator': 'flags page' };
  let result;
  if (intent === 'enable' || intent === 'disable') {
    result = await apiSend('PATCH', path, { enabled: intent === 'enable' }, request, operator);
  } else if (intent === 'rollout') {
    const percentage = Number(form.get('percentage'));
    result = await apiSend(
      'PUT',
      `${path}/rollout`,
      { allocationKey, percentage },
      request,
      operator,
    );
  } else if (intent === 'rules' || intent === 'clear-rules') {
    const operatorName = String(form.get('operator') ?? '');
    const rules =
      intent === 'clear-rules'
        ? []
        : [
            {
              conditions: [
                {
                  attribute: String(form.get('attribute') ?? ''),
                  operator: operatorName,
                  value: parseRuleValue(operatorName, String(form.get('value') ?? '')),
                },
              ],
            },
          ];
    result = await apiSend('PUT', `${path}/rules`, { allocationKey, rules }, request, operator);
  } else if (intent === 'guard') {
    // Guarded rollouts (docs/decisions/019-guarded-rollouts.md): create or replace the guard.
    result = await apiSend('PUT', `${path}/guard`, guardBodyOfForm(form), request, operator);
  } else if (intent === 'remove-guard') {
    result = await apiSend('DELETE', `${path}/guard`, undefined, request, operator);
  } else {
    return { flag, intent, error: `Unknown change "${intent}"`, field: null };
  }
  return result.ok
    ? { flag, intent, error: null, field: null }
    : {
        flag,
        intent,
        error: `${result.error?.message ?? 'Change refused'}${result.error?.field ? ` (${result.error.field})` : ''}`,
        field: result.error?.field ?? null,
      };
}

/** Changes whose refusal the flag's guard form shows, beside the fields it names. */
const GUARD_INTENTS = new Set(['guard', 'remove-guard']);

export default function FlagsPage({ loaderData }: Route.ComponentProps) {
  const outcome = useActionData<typeof action>();
  const busy = useNavigation().state !== 'idle';
  const { list, audit, guards } = loaderData;
  return (
    <section className="flags-page">
      <header className="listing__header">
        <div>
          <h1>Feature flags</h1>
          <p className="muted">
            Environment <strong>{list.environment}</strong> · configuration{' '}
            <time dateTime={new Date(list.createdAt).toISOString()} data-testid="flags-created-at">
              {new Date(list.createdAt).toISOString()}
            </time>{' '}
            · <Link to="/experiments">experiment results</Link>
          </p>
        </div>
      </header>
      {outcome?.error && !GUARD_INTENTS.has(outcome.intent) ? (
        <p className="form-error" role="alert" data-testid="flags-error">
          {outcome.flag}: {outcome.error}
        </p>
      ) : null}
      <div className="flags-page__list">
        {list.flags.map((flag) => (
          <FlagCard
            key={flag.key}
            flag={flag}
            busy={busy}
            guard={guards.find((guard) => guard.flag === flag.key)}
            guardOutcome={
              outcome?.error && outcome.flag === flag.key && GUARD_INTENTS.has(outcome.intent)
                ? (outcome as GuardFormOutcome)
                : undefined
            }
          />
        ))}
      </div>
      <h2>Recent changes</h2>
      <ul className="audit" data-testid="audit">
        {audit.map((entry) => (
          <li key={entry.id}>
            <time dateTime={new Date(entry.at).toISOString()}>
              {new Date(entry.at).toISOString()}
            </time>{' '}
            — {entry.operator}: {entry.action} {entry.flagKey ?? ''}
          </li>
        ))}
      </ul>
    </section>
  );
}
