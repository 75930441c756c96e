/**
 * The autopilot's names and limits without its schemas (docs/decisions/018-autopilot.md), so the
 * /demo page's panel imports no schema library; autopilot.ts re-exports them.
 */
export const AUTOPILOT_ROUTE = '/autopilot';
export const AUTOPILOT_START_ROUTE = '/autopilot/start';
export const AUTOPILOT_PAUSE_ROUTE = '/autopilot/pause';
export const AUTOPILOT_RESUME_ROUTE = '/autopilot/resume';
export const AUTOPILOT_STOP_ROUTE = '/autopilot/stop';

/** Who the autopilot's own scenario starts and stops are by (flag audit, markers). */
export const AUTOPILOT_OPERATOR = 'autopilot';

/** The largest seed: mulberry32 reads 32 bits. */
export const AUTOPILOT_SEED_MAX = 4_294_967_295;

export const AUTOPILOT_PROFILE_NAMES = ['gentle', 'busy', 'compressed'] as const;
export type AutopilotProfileName = (typeof AUTOPILOT_PROFILE_NAMES)[number];
