import { useEffect, useEffectEvent, useState } from 'react';
import {
  AUTOPILOT_PAUSE_ROUTE,
  AUTOPILOT_PROFILE_NAMES,
  AUTOPILOT_RESUME_ROUTE,
  AUTOPILOT_ROUTE,
  AUTOPILOT_SEED_MAX,
  AUTOPILOT_START_ROUTE,
  AUTOPILOT_STOP_ROUTE,
  type AutopilotProfileName,
} from '@showroom/contracts/autopilot-constants';
import type { AutopilotState } from '@showroom/contracts/autopilot';
import { apiClientOf, useShopClient } from '../lib/shop-session';
import { useShopQuery } from '../lib/use-shop-query';
import { messageOf } from '../lib/api-errors';
import { ShopQueryView } from './shop-query-view';

/**
 * While a schedule runs, the panel reads the autopilot again this long after its next step is
 * due: the api's ticker applies due steps once a second (docs/decisions/018-autopilot.md, "The
 * clock"), so the step is done by then.
 */
export const AUTOPILOT_STEP_SETTLE_MS = 1_500;
/**
 * And at least this often while one runs or is paused, for what another presenter (or a
 * restart of the api) changed.
 */
export const AUTOPILOT_REFRESH_MS = 15_000;

/** When the panel reads a running or paused schedule again, in ms from `now`; null: it does not. */
export function autopilotRefreshDelay(
  state: Pick<AutopilotState, 'status' | 'nextAt'>,
  now: number,
): number | null {
  if (state.status !== 'running' && state.status !== 'paused') return null;
  if (state.status === 'paused' || state.nextAt === null) return AUTOPILOT_REFRESH_MS;
  return Math.min(AUTOPILOT_REFRESH_MS, Math.max(0, state.nextAt - now) + AUTOPILOT_STEP_SETTLE_MS);
}

const time = (epochMs: number) => `${new Date(epochMs).toISOString().slice(11, 19)} UTC`;

const list = (ids: readonly string[]) => (ids.length === 0 ? 'nothing' : ids.join(', '));

/**
 * /demo's autopilot panel (docs/decisions/018-autopilot.md): the schedule's state and its next
 * step, read again when that step is due (autopilotRefreshDelay), and Start (a profile and an
 * optional seed), Pause or Resume, and Stop — operator routes reached through the web's /api
 * proxy, as the scenario panel's Stop is.
 */
export function DemoAutopilot() {
  const client = useShopClient();
  const autopilot = useShopQuery('autopilot', (shop) =>
    apiClientOf(shop).request<AutopilotState>('GET', AUTOPILOT_ROUTE),
  );
  // The schedule moves by itself: the panel follows it without a click on Refresh (and tries
  // again after a failed read, which keeps the last state shown).
  const refresh = useEffectEvent(() => autopilot.reload());
  const shown = autopilot.data;
  useEffect(() => {
    if (shown === null) return;
    const delay = autopilotRefreshDelay(shown, Date.now());
    if (delay === null) return;
    const timer = window.setTimeout(refresh, delay);
    return () => window.clearTimeout(timer);
  }, [shown, autopilot.error]);
  const [profile, setProfile] = useState<AutopilotProfileName>('gentle');
  const [seed, setSeed] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const send = async (route: string, body?: unknown) => {
    if (!client) return;
    setBusy(true);
    setFailure(null);
    try {
      await apiClientOf(client).request('POST', route, {
        headers: { 'x-operator': 'presenter' },
        ...(body === undefined ? {} : { body }),
      });
      autopilot.reload();
    } catch (error) {
      setFailure(messageOf(error));
    } finally {
      setBusy(false);
    }
  };

  const start = () => {
    const trimmed = seed.trim();
    const parsed = Number(trimmed);
    if (
      trimmed !== '' &&
      (!Number.isInteger(parsed) || parsed < 0 || parsed > AUTOPILOT_SEED_MAX)
    ) {
      setFailure(`The seed is a whole number from 0 to ${AUTOPILOT_SEED_MAX}.`);
      return;
    }
    void send(AUTOPILOT_START_ROUTE, trimmed === '' ? { profile } : { profile, seed: parsed });
  };

  return (
    <article className="demo__card" data-testid="demo-autopilot">
      <h2>Autopilot</h2>
      <p className="muted">
        Turns fault scenarios on and off by itself on a schedule planned from a profile and a seed:
        quiet, faults for a while, quiet again.
      </p>
      <ShopQueryView query={autopilot} loading="Loading the autopilot…">
        {(state) => {
          const next = state.steps[state.nextStep];
          const active = state.status === 'running' || state.status === 'paused';
          return (
            <>
              <dl className="specs" data-testid="demo-autopilot-state" data-status={state.status}>
                <dt>Status</dt>
                <dd>{state.status}</dd>
                {state.profileName ? (
                  <>
                    <dt>Profile and seed</dt>
                    <dd>
                      {state.profileName}, seed {state.seed}
                    </dd>
                    <dt>Step</dt>
                    <dd>
                      {Math.min(state.nextStep, state.steps.length)} of {state.steps.length} done
                    </dd>
                  </>
                ) : null}
                {active ? (
                  <>
                    <dt>On now</dt>
                    <dd>{list(state.on)}</dd>
                  </>
                ) : null}
                {next && active ? (
                  <>
                    <dt>Next</dt>
                    <dd>
                      {next.turnOn.length > 0 ? `on: ${list(next.turnOn)}` : ''}
                      {next.turnOff.length > 0 ? `off: ${list(next.turnOff)}` : ''}
                      {state.nextAt === null ? ' (paused)' : ` at ${time(state.nextAt)}`}
                    </dd>
                  </>
                ) : null}
              </dl>
              {active ? (
                <p>
                  {state.status === 'running' ? (
                    <button
                      type="button"
                      className="button button--small"
                      disabled={busy}
                      onClick={() => void send(AUTOPILOT_PAUSE_ROUTE)}
                    >
                      Pause
                    </button>
                  ) : (
                    <button
                      type="button"
                      className="button button--small"
                      disabled={busy}
                      onClick={() => void send(AUTOPILOT_RESUME_ROUTE)}
                    >
                      Resume
                    </button>
                  )}{' '}
                  <button
                    type="button"
                    className="button button--small"
                    disabled={busy}
                    onClick={() => void send(AUTOPILOT_STOP_ROUTE)}
                  >
                    Stop
                  </button>{' '}
                  <button type="button" className="button button--small" onClick={autopilot.reload}>
                    Refresh
                  </button>
                </p>
              ) : (
                <form
                  onSubmit={(event) => {
                    event.preventDefault();
                    start();
                  }}
                >
                  <label>
                    Profile{' '}
                    <select
                      value={profile}
                      onChange={(event) => setProfile(event.target.value as AutopilotProfileName)}
                    >
                      {AUTOPILOT_PROFILE_NAMES.map((name) => (
                        <option key={name} value={name}>
                          {name}
                        </option>
                      ))}
                    </select>
                  </label>{' '}
                  <label>
                    Seed{' '}
                    <input
                      inputMode="numeric"
                      placeholder="random"
                      value={seed}
                      onChange={(event) => setSeed(event.target.value)}
                      size={10}
                    />
                  </label>{' '}
                  <button type="submit" className="button button--small" disabled={busy}>
                    Start
                  </button>
                </form>
              )}
            </>
          );
        }}
      </ShopQueryView>
      {failure ? (
        <p className="notice notice--error" role="alert">
          {failure}
        </p>
      ) : null}
    </article>
  );
}
