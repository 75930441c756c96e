import { useEffect } from 'react';
import { data, Link, redirect, useRevalidator } from 'react-router';
import { ScenarioCard } from '../components/scenario-card';
import type { Route } from './+types/scenarios';
import { apiGet, apiSend } from '../lib/api.server';
import { pageMeta } from '../lib/page-meta';
import stylesheet from '../styles/scenarios.css?url';
import { SCENARIO_CATEGORIES } from '@showroom/contracts/scenario-link';
import type { ScenarioList, ScenarioView } from '@showroom/contracts/scenarios';

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: stylesheet }];

export function meta() {
  return pageMeta(
    'Scenarios',
    'Demo scenarios for presenters: what each one shows, what it changes, and the signal it promises in the monitoring.',
  );
}

export async function loader({ request }: Route.LoaderArgs) {
  return apiGet<ScenarioList>('/scenarios', request);
}

/** Only paths of this site: a form cannot send the browser elsewhere. */
function safeReturnPath(value: FormDataEntryValue | null): string {
  return typeof value === 'string' && value.startsWith('/') && !value.startsWith('//')
    ? value
    : '/scenarios';
}

/** Stops a running scenario (the form on this page and on /demo), then goes back. */
export async function action({ request }: Route.ActionArgs) {
  const form = await request.formData();
  const id = form.get('id');
  if (form.get('intent') !== 'stop' || typeof id !== 'string') {
    throw data({ message: 'Send intent=stop and the scenario id' }, { status: 400 });
  }
  const result = await apiSend('POST', `/scenarios/${encodeURIComponent(id)}/stop`, {}, request, {
    'x-operator': 'presenter',
  });
  if (!result.ok) {
    throw data(
      { message: result.error?.message ?? 'The scenario could not be stopped' },
      {
        status: result.status,
      },
    );
  }
  return redirect(safeReturnPath(form.get('returnTo')));
}

const CATEGORY_TITLES: Record<ScenarioView['category'], string> = {
  switch: 'Query switches: one browser at a time',
  fault: 'Faults: every shopper the flag targets, until stopped',
  page: 'Pages',
  rollout: 'Guarded rollouts: a flag rolls out in steps and protects itself',
};

/**
 * /scenarios (docs/requirements.md §2: its own layout, no start-up): the scenario catalogue.
 * The page depends on no shopper (the web server may serve it from its cache), so the running
 * scenarios are read again once it is in the browser.
 */
export default function ScenariosPage({ loaderData }: Route.ComponentProps) {
  const { scenarios, active } = loaderData;
  const revalidator = useRevalidator();
  useEffect(() => {
    void revalidator.revalidate();
    // Once per page load.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return (
    <section className="scenarios" data-testid="scenarios-page">
      <h1>Scenarios</h1>
      <p className="muted">
        Each scenario changes the shop in one way and promises a signal in the monitoring. Open its
        link in a browser to start it; the <Link to="/inspector">session inspector</Link> shows
        whether its signal has been seen.
      </p>
      {SCENARIO_CATEGORIES.map((category) => {
        const group = scenarios.filter((scenario) => scenario.category === category);
        if (group.length === 0) return null;
        return (
          <section key={category} className="scenarios__group">
            <h2>{CATEGORY_TITLES[category]}</h2>
            <div className="scenarios__list">
              {group.map((scenario) => (
                <ScenarioCard
                  key={scenario.id}
                  scenario={scenario}
                  run={active.find((run) => run.scenarioId === scenario.id) ?? null}
                />
              ))}
            </div>
          </section>
        );
      })}
    </section>
  );
}
