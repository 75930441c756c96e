import { useEffect, useRef } from 'react';
import {
  data,
  Form,
  redirectDocument,
  useActionData,
  useNavigation,
  useSubmit,
} from 'react-router';
import type { Route } from './+types/scenario-start';
import { apiGet, apiSend } from '../lib/api.server';
import { pageMeta } from '../lib/page-meta';
import type { ScenarioList, ScenarioStartResult } from '@showroom/contracts/scenarios';

export function meta({ data: loaderData }: Route.MetaArgs) {
  return pageMeta(
    loaderData ? `Start: ${loaderData.scenario.title}` : 'Start a scenario',
    'Starts a demo scenario, then opens the page it changes.',
  );
}

export async function loader({ params, request }: Route.LoaderArgs) {
  const { scenarios } = await apiGet<ScenarioList>('/scenarios', request);
  const scenario = scenarios.find((candidate) => candidate.id === params.id);
  if (!scenario) {
    throw data({ message: `No scenario "${params.id}" in the catalogue` }, { status: 404 });
  }
  return { scenario };
}

/**
 * Starts the scenario on the api (its flag changes, a marker), then sends the browser to its
 * link with a full page load, so the shop's start-up reads the link's switches and tag.
 */
export async function action({ params, request }: Route.ActionArgs) {
  const result = await apiSend<ScenarioStartResult>(
    'POST',
    `/scenarios/${encodeURIComponent(params.id)}/start`,
    {},
    request,
    { 'x-operator': 'scenario link' },
  );
  if (!result.ok) return { error: result.error?.message ?? 'The scenario could not be started' };
  return redirectDocument(result.data.link);
}

/**
 * /scenarios/:id/start, the shareable link of a scenario: opening it starts the scenario. The
 * page sends its own form once it is in the browser; without JavaScript the button does.
 */
export default function ScenarioStartPage({ loaderData }: Route.ComponentProps) {
  const { scenario } = loaderData;
  const submit = useSubmit();
  const navigation = useNavigation();
  const result = useActionData<typeof action>();
  const form = useRef<HTMLFormElement>(null);
  const sent = useRef(false);
  useEffect(() => {
    if (sent.current || !form.current) return;
    sent.current = true;
    void submit(form.current);
  }, [submit]);
  return (
    <section className="scenarios" data-testid="scenario-start-page">
      <h1>{scenario.title}</h1>
      <p>{scenario.demonstrates}</p>
      {result?.error ? (
        <p className="notice notice--error" role="alert">
          {result.error}
        </p>
      ) : (
        <p className="muted" role="status">
          {navigation.state === 'idle' ? 'Ready to start.' : 'Starting the scenario…'}
        </p>
      )}
      <Form method="post" ref={form}>
        <button type="submit" className="button">
          Start and open {scenario.entry}
        </button>
      </Form>
    </section>
  );
}
