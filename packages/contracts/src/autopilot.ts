import { Type, type Static } from 'typebox';
import { literalUnion } from './catalog.js';
import {
  AUTOPILOT_PROFILE_NAMES,
  AUTOPILOT_SEED_MAX,
  type AutopilotProfileName,
} from './autopilot-constants.js';
import { mulberry32 } from './random.js';

export * from './autopilot-constants.js';

/**
 * The autopilot (docs/decisions/018-autopilot.md): a schedule, planned from a profile and a
 * seed, that turns fault scenarios of the catalogue on and off by itself — a quiet period, one
 * or more faults for a while, quiet again — so the demo produces incidents with nobody at the
 * controls. The schedule is data: the same profile and seed always plan the same steps.
 */

const RangeSchema = (description: string, minimum: number) =>
  Type.Object(
    {
      min: Type.Number({ minimum }),
      max: Type.Number({ minimum }),
    },
    { description },
  );

export const AutopilotProfileSchema = Type.Object({
  quietMinutes: RangeSchema('How long each quiet period lasts', 0),
  faultMinutes: RangeSchema('How long each fault period lasts', 0),
  faultsAtOnce: RangeSchema('How many fault scenarios one fault period turns on', 1),
  scenarios: Type.Array(Type.String({ minLength: 1 }), {
    minItems: 1,
    description: 'The fault scenarios (catalogue ids) the autopilot may turn on',
  }),
  steps: Type.Optional(
    Type.Integer({
      minimum: 1,
      description: 'Fault periods before the autopilot finishes; default AUTOPILOT_DEFAULT_PERIODS',
    }),
  ),
  minuteMs: Type.Optional(
    Type.Integer({
      minimum: 1,
      description: 'How long a "minute" is, in ms; default 60000 (a demo runs seconds for minutes)',
    }),
  ),
});
export type AutopilotProfile = Static<typeof AutopilotProfileSchema>;

export const AUTOPILOT_DEFAULT_PERIODS = 4;
export const MINUTE_MS = 60_000;

/** The catalogue's fault scenarios (data/scenarios.json): the ones that change flags. */
const FAULT_SCENARIOS = [
  'slow-product-api',
  'payment-failures',
  'slow-product-images',
  'broken-product-images',
  'recommendations-failure',
  'slow-cart-query',
];

/**
 * The shipped profiles: `gentle` for a talk (one fault at a time, long quiet), `busy` for a
 * stand (faults overlap), `compressed` for tests and quick demos (a "minute" is a second).
 */
export const AUTOPILOT_PROFILES: Readonly<Record<AutopilotProfileName, AutopilotProfile>> = {
  gentle: {
    quietMinutes: { min: 20, max: 40 },
    faultMinutes: { min: 5, max: 10 },
    faultsAtOnce: { min: 1, max: 1 },
    scenarios: FAULT_SCENARIOS,
    steps: 4,
  },
  busy: {
    quietMinutes: { min: 5, max: 10 },
    faultMinutes: { min: 5, max: 15 },
    faultsAtOnce: { min: 1, max: 3 },
    scenarios: FAULT_SCENARIOS,
    steps: 8,
  },
  compressed: {
    quietMinutes: { min: 1, max: 3 },
    faultMinutes: { min: 1, max: 2 },
    faultsAtOnce: { min: 1, max: 2 },
    scenarios: FAULT_SCENARIOS,
    steps: 3,
    minuteMs: 1_000,
  },
};

export const AutopilotStepSchema = Type.Object({
  index: Type.Integer({ minimum: 0 }),
  offsetMs: Type.Integer({ minimum: 0, description: 'When, in running time since the start' }),
  turnOn: Type.Array(Type.String()),
  turnOff: Type.Array(Type.String()),
});
export type AutopilotStep = Static<typeof AutopilotStepSchema>;

/** A whole number of ms between `range.min` and `range.max` minutes. */
function duration(random: () => number, range: { min: number; max: number }, minuteMs: number) {
  const low = Math.min(range.min, range.max);
  const high = Math.max(range.min, range.max);
  return Math.round((low + random() * (high - low)) * minuteMs);
}

/**
 * The schedule of a profile and a seed: quiet, faults on, faults off, quiet, … one pair of
 * steps per fault period, the last step turning the last faults off. Only the profile's
 * scenarios the catalogue holds (`available`) are chosen, in the profile's order before the
 * draw, so the catalogue's order does not change the plan. Pure: the same arguments always
 * plan the same steps (docs/decisions/018-autopilot.md).
 */
export function planAutopilot(
  profile: AutopilotProfile,
  seed: number,
  available: readonly string[],
): AutopilotStep[] {
  const random = mulberry32(seed);
  const known = new Set(available);
  const pool = [...new Set(profile.scenarios.filter((id) => known.has(id)))];
  if (pool.length === 0) return [];
  const minuteMs = profile.minuteMs ?? MINUTE_MS;
  const periods = profile.steps ?? AUTOPILOT_DEFAULT_PERIODS;
  const steps: AutopilotStep[] = [];
  let at = 0;
  for (let period = 0; period < periods; period += 1) {
    at += duration(random, profile.quietMinutes, minuteMs);
    const low = Math.max(1, Math.min(profile.faultsAtOnce.min, profile.faultsAtOnce.max));
    const high = Math.max(low, profile.faultsAtOnce.max);
    const count = Math.min(pool.length, low + Math.floor(random() * (high - low + 1)));
    // A partial Fisher–Yates shuffle: `count` distinct scenarios, each equally likely.
    const draw = [...pool];
    for (let i = 0; i < count; i += 1) {
      const j = i + Math.floor(random() * (draw.length - i));
      [draw[i], draw[j]] = [draw[j]!, draw[i]!];
    }
    const chosen = draw.slice(0, count);
    steps.push({ index: steps.length, offsetMs: at, turnOn: chosen, turnOff: [] });
    at += duration(random, profile.faultMinutes, minuteMs);
    steps.push({ index: steps.length, offsetMs: at, turnOn: [], turnOff: chosen });
  }
  return steps;
}

/** The scenarios a schedule has on once its first `applied` steps are applied. */
export function scenariosOnAfter(steps: readonly AutopilotStep[], applied: number): string[] {
  const on = new Set<string>();
  for (const step of steps.slice(0, applied)) {
    for (const id of step.turnOff) on.delete(id);
    for (const id of step.turnOn) on.add(id);
  }
  return [...on];
}

export const AUTOPILOT_STATUSES = ['idle', 'running', 'paused', 'finished'] as const;
export type AutopilotStatus = (typeof AUTOPILOT_STATUSES)[number];

export const AutopilotStartBodySchema = Type.Object({
  profile: literalUnion(AUTOPILOT_PROFILE_NAMES, {
    description: 'A shipped profile: gentle, busy or compressed',
  }),
  seed: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: AUTOPILOT_SEED_MAX,
      description: 'Plans the schedule; default: a random one (answered in the state)',
    }),
  ),
});
export type AutopilotStartBody = Static<typeof AutopilotStartBodySchema>;

export const AutopilotPlannedStepSchema = Type.Object({
  ...AutopilotStepSchema.properties,
  /** Epoch ms it is (or was) due, counting pauses so far; null while paused and not yet applied. */
  dueAt: Type.Union([Type.Integer(), Type.Null()]),
  applied: Type.Boolean(),
});
export type AutopilotPlannedStep = Static<typeof AutopilotPlannedStepSchema>;

export const AutopilotStateSchema = Type.Object({
  status: literalUnion(AUTOPILOT_STATUSES),
  profileName: Type.Union([Type.String(), Type.Null()]),
  profile: Type.Union([AutopilotProfileSchema, Type.Null()]),
  seed: Type.Union([Type.Integer(), Type.Null()]),
  startedAt: Type.Union([Type.Integer(), Type.Null()]),
  startedBy: Type.Union([Type.String(), Type.Null()]),
  pausedAt: Type.Union([Type.Integer(), Type.Null()]),
  /** Time spent paused so far, ms: the schedule runs that much later. */
  pausedMs: Type.Integer({ minimum: 0 }),
  /** The next step to apply (steps.length once all are applied). */
  nextStep: Type.Integer({ minimum: 0 }),
  /** When the next step is due (epoch ms), or null (not running, or no step left). */
  nextAt: Type.Union([Type.Integer(), Type.Null()]),
  /** The scenarios the autopilot has on now. */
  on: Type.Array(Type.String()),
  steps: Type.Array(AutopilotPlannedStepSchema),
});
export type AutopilotState = Static<typeof AutopilotStateSchema>;
