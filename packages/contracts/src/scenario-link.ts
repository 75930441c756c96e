// How a scenario's address is written and how a page knows it was opened by one. No TypeBox: the
// browser's start-up imports this at run time.

/**
 * Query switch that tags the browser session with a scenario (our addition to the spec's
 * switches, docs/requirements.md ): start-up keeps it in session storage
 * (`SCENARIO_STORAGE_KEY`) and the monitoring SDK sends it as the global context property
 * `scenario`, so a scenario's proof counts the sessions it started.
 */
export const SCENARIO_QUERY_KEY = 'scenario';

/** How the catalogue groups its scenarios. */
export const SCENARIO_CATEGORIES = ['switch', 'fault', 'page', 'rollout'] as const;

/**
 * Whether starting a scenario changes the flag service for everyone (flag changes, a guarded
 * rollout or an autopilot schedule): such a scenario runs until stopped.
 */
export function changesFlagService(scenario: {
  flagChanges: readonly unknown[];
  rollout?: unknown;
  autopilot?: unknown;
}): boolean {
  return (
    scenario.flagChanges.length > 0 ||
    scenario.rollout !== undefined ||
    scenario.autopilot !== undefined
  );
}

export const SCENARIO_ID_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * The scenarios an autopilot fault period may turn on (docs/decisions/018-autopilot.md): those
 * that change flags, never one that runs a rollout or a schedule of its own (decision 020).
 */
export function autopilotCandidates(
  scenarios: readonly {
    id: string;
    flagChanges: readonly unknown[];
    rollout?: unknown;
    autopilot?: unknown;
  }[],
): string[] {
  return scenarios
    .filter(
      (scenario) =>
        scenario.flagChanges.length > 0 &&
        scenario.rollout === undefined &&
        scenario.autopilot === undefined,
    )
    .map((scenario) => scenario.id);
}

/** The page that starts a scenario (applies its flag changes, then opens its link). */
export function scenarioStartPath(id: string): string {
  return `/scenarios/${encodeURIComponent(id)}/start`;
}

/** `entry` (a path, with or without a query) with the scenario's query switches and its tag. */
export function scenarioLink(entry: string, switches: Record<string, string>, id: string): string {
  const pairs = Object.entries({ ...switches, [SCENARIO_QUERY_KEY]: id }).map(
    ([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`,
  );
  return `${entry}${entry.includes('?') ? '&' : '?'}${pairs.join('&')}`;
}
