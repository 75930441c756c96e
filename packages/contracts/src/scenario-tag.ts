// How a page knows a scenario opened it: the query switch and the id it must carry. A module of
// its own, so the monitoring SDK's chunk, which tags the session, shares no chunk with the
// scenario pages (scenario-link.ts, which re-exports these).

/**
 * Query switch that tags the browser session with a scenario (our addition to the spec's
 * switches, docs/requirements.md ): start-up keeps it in session storage
 * (`SCENARIO_STORAGE_KEY`) and the monitoring SDK sends it as the global context property
 * `scenario`, so a scenario's proof counts the sessions it started.
 */
export const SCENARIO_QUERY_KEY = 'scenario';

/** A scenario id: lower-case words joined by hyphens. */
export const SCENARIO_ID_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
