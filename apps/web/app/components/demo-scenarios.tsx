import { useState } from 'react';
import { scenarioStartPath } from '@showroom/contracts/scenario-link';
import type { ScenarioList } from '@showroom/contracts/scenarios';
import { apiClientOf, useShopClient } from '../lib/shop-session';
import { useShopQuery } from '../lib/use-shop-query';
import { messageOf } from '../lib/api-errors';
import { ShopQueryView } from './shop-query-view';

const time = (epochMs: number) => `${new Date(epochMs).toISOString().slice(11, 16)} UTC`;

/**
 * /demo's scenario panel (docs/decisions/011-scenario-catalogue.md): a link to start every
 * scenario of the catalogue, and the scenarios running now (those that changed flags) with Stop.
 */
export function DemoScenarios() {
  const client = useShopClient();
  const scenarios = useShopQuery('scenarios', (shop) =>
    apiClientOf(shop).request<ScenarioList>('GET', '/scenarios'),
  );
  const [stopping, setStopping] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const stop = async (id: string) => {
    if (!client) return;
    setStopping(id);
    setFailure(null);
    try {
      await apiClientOf(client).request('POST', `/scenarios/${encodeURIComponent(id)}/stop`, {
        headers: { 'x-operator': 'presenter' },
      });
      scenarios.reload();
    } catch (error) {
      setFailure(messageOf(error));
    } finally {
      setStopping(null);
    }
  };

  return (
    <article className="demo__card" data-testid="demo-scenarios">
      <h2>Scenarios</h2>
      <ShopQueryView query={scenarios} loading="Loading the scenarios…">
        {({ scenarios: list, active }) => (
          <>
            <h3>Running now</h3>
            {active.length === 0 ? (
              <p className="muted" data-testid="demo-active-scenarios">
                No scenario is changing flags.
              </p>
            ) : (
              <ul data-testid="demo-active-scenarios">
                {active.map((run) => (
                  <li key={run.id} data-scenario-id={run.scenarioId}>
                    {list.find((entry) => entry.id === run.scenarioId)?.title ?? run.scenarioId},
                    since {time(run.startedAt)} (by {run.startedBy}){' '}
                    <button
                      type="button"
                      className="button button--small"
                      disabled={stopping === run.scenarioId}
                      onClick={() => void stop(run.scenarioId)}
                    >
                      {stopping === run.scenarioId ? 'Stopping…' : 'Stop'}
                    </button>
                  </li>
                ))}
              </ul>
            )}
            {failure ? (
              <p className="notice notice--error" role="alert">
                {failure}
              </p>
            ) : null}
            <h3>Start one</h3>
            <ul data-testid="demo-scenario-links">
              {list.map((scenario) => (
                <li key={scenario.id}>
                  <a href={scenarioStartPath(scenario.id)} data-scenario-id={scenario.id}>
                    {scenario.title}
                  </a>{' '}
                  <span className="muted">— {scenario.signal.description}</span>
                </li>
              ))}
            </ul>
            <p>
              <a href="/scenarios">The whole catalogue</a>
            </p>
          </>
        )}
      </ShopQueryView>
    </article>
  );
}
