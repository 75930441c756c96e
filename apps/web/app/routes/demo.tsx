import { useState } from 'react';
import { useRootData } from '../root';
import { DEMO_FEATURES, type DemoFeature } from '../flags/demo-features';
import { useDemoFeatureDetails } from '../flags/use-demo-feature';
import {
  readBuyNowButtonMode,
  readNewProductPhotosMode,
  readStoredFlag,
} from '../startup/query-switches';
import { readStoredIdentity } from '../startup/sample-identity';
import { useStartup } from '../startup/startup-context';
import { usePersona } from '../startup/persona';
import {
  DEMO_MODE_KEYS,
  IDENTITY_KEYS,
  RUM_CONFIG_HOST_KEY,
  RUM_CONFIG_KEY_KEY,
} from '../startup/storage-keys';
import { pageMeta } from '../lib/page-meta';
import { DemoScenarios } from '../components/demo-scenarios';
import { DemoAutopilot } from '../components/demo-autopilot';
import { BuildStatusCard } from '../components/build-status';

export function meta() {
  return pageMeta(
    'Demo settings',
    'Demo settings for presenters: the shopper identity, deployment profile, feature flags and demo modes of this session.',
  );
}

interface BrowserState {
  identity: ReturnType<typeof readStoredIdentity>;
  overrides: Record<string, boolean | null>;
  buyNow: ReturnType<typeof readBuyNowButtonMode>;
  newPhotos: ReturnType<typeof readNewProductPhotosMode>;
  storedProfile: string | null;
}

function readBrowserState(): BrowserState {
  return {
    identity: readStoredIdentity(localStorage),
    overrides: Object.fromEntries(
      DEMO_FEATURES.map((f) => [f.storageKey, readStoredFlag(localStorage, f.storageKey)]),
    ),
    buyNow: readBuyNowButtonMode(sessionStorage),
    newPhotos: readNewProductPhotosMode(sessionStorage),
    storedProfile: localStorage.getItem(RUM_CONFIG_KEY_KEY),
  };
}

/** /demo: what this browser is, and buttons to change it (presenters' control panel). */
export default function DemoPage() {
  const startup = useStartup();
  const profileKeys = Object.keys(useRootData()?.profileIndex ?? {});
  // Storage is read only once start-up has run in the browser (never during SSR or hydration).
  const [, setRevision] = useState(0);
  const state: BrowserState | null = startup ? readBrowserState() : null;
  const refresh = () => setRevision((revision) => revision + 1);

  if (!startup || !state) {
    return (
      <section>
        <h1>Demo settings</h1>
        <p className="muted">Reading this browser's settings…</p>
      </section>
    );
  }

  const setOverride = (key: string, value: boolean | null) => {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, String(value));
    refresh();
  };
  const setDemoMode = (key: string, value: object) => {
    sessionStorage.setItem(key, JSON.stringify(value));
    refresh();
  };
  const resetIdentity = () => {
    for (const key of Object.values(IDENTITY_KEYS)) localStorage.removeItem(key);
    window.location.reload();
  };
  const switchProfile = (key: string) => {
    localStorage.setItem(RUM_CONFIG_KEY_KEY, key);
    localStorage.setItem(RUM_CONFIG_HOST_KEY, window.location.host);
    window.location.reload();
  };

  const { identity } = state;
  return (
    <section className="demo" data-testid="demo-page">
      <h1>Demo settings</h1>
      <div className="demo__grid">
        <article className="demo__card">
          <h2>Shopper identity</h2>
          {identity ? (
            <dl className="specs" data-testid="demo-identity">
              <dt>Id</dt>
              <dd>{identity.id}</dd>
              <dt>Name</dt>
              <dd>{identity.name}</dd>
              <dt>E-mail</dt>
              <dd>{identity.email}</dd>
              <dt>Team</dt>
              <dd>{identity.team}</dd>
              <dt>Discount</dt>
              <dd>{String(identity.useDiscount)}</dd>
              <dt>New checkout</dt>
              <dd>{String(identity.useNewCheckoutFlow)}</dd>
              <dt>Monitoring user</dt>
              <dd data-testid="demo-monitoring-user">{startup.monitoringUser.kind}</dd>
            </dl>
          ) : (
            <p>No identity stored.</p>
          )}
          <button type="button" className="button" onClick={resetIdentity}>
            Reset identity
          </button>
        </article>

        <PersonaCard />

        <DemoScenarios />

        <DemoAutopilot />

        <article className="demo__card">
          <h2>Deployment</h2>
          <dl className="specs">
            <dt>Profile</dt>
            <dd data-testid="demo-profile">{startup.profileKey}</dd>
            <dt>Backend</dt>
            <dd>{startup.backendUrl}</dd>
            <dt>Site</dt>
            <dd>{startup.profile.site}</dd>
            <dt>Version</dt>
            <dd data-testid="demo-version">{startup.version.version}</dd>
            <dt>Browser</dt>
            <dd>{startup.browserFamily}</dd>
          </dl>
          <label htmlFor="profile-switch">Switch profile</label>{' '}
          <select
            id="profile-switch"
            value={state.storedProfile ?? startup.profileKey}
            onChange={(event) => switchProfile(event.target.value)}
          >
            {profileKeys.map((key) => (
              <option key={key} value={key}>
                {key}
              </option>
            ))}
          </select>
        </article>

        <BuildStatusCard />

        <article className="demo__card demo__card--wide">
          <h2>Feature flags</h2>
          <table className="demo__table">
            <thead>
              <tr>
                <th>Feature</th>
                <th>Override</th>
                <th>Flag service</th>
                <th>Effective</th>
                <th>Set</th>
              </tr>
            </thead>
            <tbody>
              {DEMO_FEATURES.map((feature) => {
                return (
                  <tr key={feature.feature} data-testid={`demo-flag-${feature.storageKey}`}>
                    <td>
                      {feature.label} <code>{feature.storageKey}</code>
                    </td>
                    <FlagValues
                      feature={feature.feature}
                      override={state.overrides[feature.storageKey] ?? null}
                    />
                    <td className="demo__actions">
                      <button
                        type="button"
                        className="button button--small"
                        onClick={() => setOverride(feature.storageKey, true)}
                      >
                        On
                      </button>
                      <button
                        type="button"
                        className="button button--small"
                        onClick={() => setOverride(feature.storageKey, false)}
                      >
                        Off
                      </button>
                      <button
                        type="button"
                        className="button button--small"
                        onClick={() => setOverride(feature.storageKey, null)}
                      >
                        Clear
                      </button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </article>

        <article className="demo__card">
          <h2>Demo modes</h2>
          <label className="demo__toggle">
            <input
              type="checkbox"
              checked={state.buyNow.enabled}
              onChange={(event) =>
                setDemoMode(DEMO_MODE_KEYS.buyNowButton, {
                  ...state.buyNow,
                  enabled: event.target.checked,
                })
              }
            />{' '}
            Buy-now button
          </label>
          <label className="demo__toggle">
            <input
              type="checkbox"
              checked={state.buyNow.shouldError}
              onChange={(event) =>
                setDemoMode(DEMO_MODE_KEYS.buyNowButton, {
                  ...state.buyNow,
                  shouldError: event.target.checked,
                })
              }
            />{' '}
            Buy-now fails with an error
          </label>
          <label className="demo__toggle">
            <input
              type="checkbox"
              checked={state.newPhotos.enabled}
              onChange={(event) =>
                setDemoMode(DEMO_MODE_KEYS.newProductPhotos, { enabled: event.target.checked })
              }
            />{' '}
            New product photos
          </label>
        </article>
      </div>
    </section>
  );
}

function FlagValues({ feature, override }: { feature: DemoFeature; override: boolean | null }) {
  const effective = useDemoFeatureDetails(feature);
  return (
    <>
      <td data-testid="override">{override === null ? '—' : String(override)}</td>
      <td data-testid="flag-value">
        {effective.flagValue === null ? '—' : String(effective.flagValue)}
      </td>
      <td data-testid="effective">
        {String(effective.value)} <span className="muted">({effective.source})</span>
      </td>
    </>
  );
}

/**
 * The one persona (decision 008): who the api says this browser is — the same person the
 * monitoring user, the flag subject, the checkout pre-fill and the api's spans name.
 */
function PersonaCard() {
  const persona = usePersona();
  return (
    <article className="demo__card">
      <h2>Persona</h2>
      {persona ? (
        <dl className="specs" data-testid="demo-persona">
          <dt>Who</dt>
          <dd data-testid="demo-persona-kind">
            {persona.list === 'account' ? 'Signed-in account' : `Sample shopper (${persona.list})`}
          </dd>
          <dt>Id</dt>
          <dd data-testid="demo-persona-id">{persona.id}</dd>
          <dt>Name</dt>
          <dd>{persona.name}</dd>
          <dt>E-mail</dt>
          <dd>{persona.email}</dd>
          <dt>Loyalty</dt>
          <dd data-testid="demo-persona-tier">
            {persona.loyaltyMember ? `member, ${persona.tier}` : 'not a member'}
          </dd>
          <dt>Seen as</dt>
          <dd>
            monitoring <code>usr.id</code>, flag <code>targetingKey</code>, api span{' '}
            <code>usr.id</code> = {persona.id}; <code>tier</code> = {persona.tier}
          </dd>
        </dl>
      ) : (
        <p className="muted">The api has not named this browser's persona yet.</p>
      )}
    </article>
  );
}
