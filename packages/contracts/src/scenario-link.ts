// How a scenario's address is written. No TypeBox: the scenario pages import this at run time.
// How a page knows it was opened by one is in scenario-tag.ts, which the monitoring SDK's chunk
// imports alone.
import { SCENARIO_ID_PATTERN, SCENARIO_QUERY_KEY } from './scenario-tag.js';

export { SCENARIO_ID_PATTERN, SCENARIO_QUERY_KEY };

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
