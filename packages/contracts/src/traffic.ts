import { Type, type Static, type TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { literalUnion } from './catalog.js';
import { SCENARIO_ID_PATTERN } from './scenario-link.js';

/**
 * Traffic profiles (`npm run traffic`, tools/traffic): what shopper sessions the traffic
 * generator opens, as data. Every field is optional (the defaults below fill it in); an entry
 * that does not match its schema is skipped with a warning naming it, the rest of the profile
 * still counts. README "Traffic generator" documents the format.
 */

/** What a generated session does (tools/traffic/src/journeys.ts). */
export const TRAFFIC_JOURNEYS = [
  'browse',
  'search',
  'sort',
  'abandon-cart',
  'checkout',
  'checkout-single-page',
  'signup-loyalty',
  'scenario',
] as const;
export type TrafficJourney = (typeof TRAFFIC_JOURNEYS)[number];

/** Funnel steps a shopper may leave at (the drop-off share applies when the step is reached). */
export const TRAFFIC_FUNNEL_STEPS = ['product', 'cart', 'checkout', 'payment'] as const;
export type TrafficFunnelStep = (typeof TRAFFIC_FUNNEL_STEPS)[number];

/** Session storage key the monitoring chunk reads the traffic tag from (`{profile, run}`). */
export const TRAFFIC_STORAGE_KEY = 'showroom_traffic';

const Weight = Type.Number({ minimum: 0, description: 'Relative weight in its mix' });
const Share = Type.Number({ minimum: 0, maximum: 1 });

export const TrafficSpikeSchema = Type.Object(
  {
    /** Start, `HH:MM` in the profile's day (UTC unless `timezoneOffsetMinutes`). */
    at: Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$' }),
    minutes: Type.Number({ exclusiveMinimum: 0, maximum: 1440 }),
    multiplier: Type.Number({ minimum: 0 }),
  },
  { additionalProperties: false },
);
export type TrafficSpike = Static<typeof TrafficSpikeSchema>;

export const TrafficDeviceSchema = Type.Object(
  {
    name: Type.String({ minLength: 1 }),
    weight: Weight,
    viewport: Type.Object(
      {
        width: Type.Integer({ minimum: 200, maximum: 4000 }),
        height: Type.Integer({ minimum: 200, maximum: 4000 }),
      },
      { additionalProperties: false },
    ),
    userAgent: Type.Optional(Type.String({ minLength: 1 })),
    isMobile: Type.Optional(Type.Boolean()),
    hasTouch: Type.Optional(Type.Boolean()),
    deviceScaleFactor: Type.Optional(Type.Number({ minimum: 1, maximum: 4 })),
  },
  { additionalProperties: false },
);
export type TrafficDevice = Static<typeof TrafficDeviceSchema>;

export const TrafficNetworkSchema = Type.Object(
  {
    name: Type.String({ minLength: 1 }),
    weight: Weight,
    /** Omitted: no throttling. */
    downloadKbps: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
    uploadKbps: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
    latencyMs: Type.Optional(Type.Number({ minimum: 0 })),
  },
  { additionalProperties: false },
);
export type TrafficNetwork = Static<typeof TrafficNetworkSchema>;

export const TrafficLocaleSchema = Type.Object(
  {
    locale: Type.String({ pattern: '^[a-z]{2,3}(-[A-Z]{2})?$' }),
    weight: Weight,
    timezone: Type.Optional(Type.String({ minLength: 1 })),
  },
  { additionalProperties: false },
);
export type TrafficLocale = Static<typeof TrafficLocaleSchema>;

export const TrafficSwitchSchema = Type.Object(
  {
    /** Query switches (README "Query switches") added to a session's first page. */
    query: Type.Record(Type.String({ minLength: 1 }), Type.String()),
    /** Share of sessions that get them. */
    share: Share,
  },
  { additionalProperties: false },
);
export type TrafficSwitch = Static<typeof TrafficSwitchSchema>;

export const TrafficScenarioSchema = Type.Object(
  {
    /** A scenario of data/scenarios.json: `scenario` journeys open its link and run its journey. */
    id: Type.String({ pattern: SCENARIO_ID_PATTERN.source, maxLength: 60 }),
    weight: Weight,
  },
  { additionalProperties: false },
);
export type TrafficScenario = Static<typeof TrafficScenarioSchema>;

export const TrafficThinkTimeSchema = Type.Object(
  {
    minMs: Type.Integer({ minimum: 0, maximum: 600_000 }),
    maxMs: Type.Integer({ minimum: 0, maximum: 600_000 }),
  },
  { additionalProperties: false },
);

/** The whole profile (for documentation and editors; the reader checks each entry on its own). */
/**
 * A designed effect (docs/architecture.md "Feature flags"): sessions shown `variant` of `flag`
 * convert `conversionMultiplier` times as often as the profile's funnel otherwise lets them, so
 * a presenter can show the experiment results find it. `instant_pay` is drawn by its own split
 * (R-4.7); any other flag is evaluated through the flag service's OFREP route.
 */
export const TrafficExperimentSchema = Type.Object(
  {
    flag: Type.String({ pattern: '^[A-Za-z0-9_.-]{1,128}$' }),
    variant: Type.String({ minLength: 1, maxLength: 128 }),
    conversionMultiplier: Type.Number({ exclusiveMinimum: 0, maximum: 10 }),
  },
  { additionalProperties: false },
);
export type TrafficExperiment = Static<typeof TrafficExperimentSchema>;

export const TrafficProfileSchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 60 }),
    description: Type.Optional(Type.String()),
    seed: Type.Optional(Type.Integer({ description: 'Same seed, same sequence of sessions' })),
    /** Sessions per minute by hour of the day (`"0"`…`"23"`), linear between the hours given. */
    rate: Type.Optional(
      Type.Record(Type.String({ pattern: '^([0-9]|1[0-9]|2[0-3])$' }), Type.Number({ minimum: 0 })),
    ),
    /** Multiplies the whole curve (a control file turns traffic up or down with it). */
    rateScale: Type.Optional(Type.Number({ minimum: 0 })),
    spikes: Type.Optional(Type.Array(TrafficSpikeSchema)),
    timezoneOffsetMinutes: Type.Optional(Type.Integer({ minimum: -840, maximum: 840 })),
    concurrency: Type.Optional(Type.Integer({ minimum: 1, maximum: 64 })),
    paused: Type.Optional(Type.Boolean()),
    journeys: Type.Optional(Type.Record(literalUnion(TRAFFIC_JOURNEYS), Weight)),
    devices: Type.Optional(Type.Array(TrafficDeviceSchema)),
    networks: Type.Optional(Type.Array(TrafficNetworkSchema)),
    locales: Type.Optional(Type.Array(TrafficLocaleSchema)),
    returningShare: Type.Optional(Share),
    switches: Type.Optional(Type.Array(TrafficSwitchSchema)),
    scenarios: Type.Optional(Type.Array(TrafficScenarioSchema)),
    thinkTime: Type.Optional(TrafficThinkTimeSchema),
    dropOff: Type.Optional(Type.Record(literalUnion(TRAFFIC_FUNNEL_STEPS), Share)),
    experiment: Type.Optional(TrafficExperimentSchema),
  },
  { additionalProperties: false },
);
export type TrafficProfileInput = Static<typeof TrafficProfileSchema>;

/** A profile as the generator uses it: every field filled in, only valid entries kept. */
export interface TrafficProfile {
  name: string;
  description: string;
  seed: number;
  rate: Record<number, number>;
  rateScale: number;
  spikes: TrafficSpike[];
  timezoneOffsetMinutes: number;
  concurrency: number;
  paused: boolean;
  journeys: Partial<Record<TrafficJourney, number>>;
  devices: TrafficDevice[];
  networks: TrafficNetwork[];
  locales: TrafficLocale[];
  returningShare: number;
  switches: TrafficSwitch[];
  scenarios: TrafficScenario[];
  thinkTime: { minMs: number; maxMs: number };
  dropOff: Partial<Record<TrafficFunnelStep, number>>;
  experiment: TrafficExperiment | null;
}

export const DEFAULT_DESKTOP: TrafficDevice = {
  name: 'desktop',
  weight: 1,
  viewport: { width: 1366, height: 768 },
};

export const DEFAULT_TRAFFIC_PROFILE: TrafficProfile = {
  name: 'default',
  description: '',
  seed: 1,
  rate: { 0: 6 },
  rateScale: 1,
  spikes: [],
  timezoneOffsetMinutes: 0,
  concurrency: 2,
  paused: false,
  journeys: { browse: 1 },
  devices: [DEFAULT_DESKTOP],
  networks: [{ name: 'unthrottled', weight: 1 }],
  locales: [{ locale: 'en-US', weight: 1 }],
  returningShare: 0,
  switches: [],
  scenarios: [],
  thinkTime: { minMs: 500, maxMs: 2000 },
  dropOff: {},
  experiment: null,
};

/** A profile read from JSON, and the entries it left out (each naming the entry). */
export interface TrafficProfileReading {
  profile: TrafficProfile;
  warnings: string[];
}

function problem(schema: TSchema, value: unknown): string | undefined {
  if (Value.Check(schema, value)) return undefined;
  const [first] = Value.Errors(schema, value);
  if (!first) return 'is invalid';
  const where = first.instancePath.split('/').filter(Boolean).join('.');
  return `${where ? `${where} ` : ''}${first.message}`;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Reads a traffic profile (parsed JSON): each field, each list entry and each map entry is
 * checked on its own; what does not match is skipped with a warning naming it, and a field
 * missing or left empty takes the default's value. Only a value that is not an object at all
 * is refused.
 */
export function readTrafficProfile(
  raw: unknown,
  fallbackName = 'profile',
  base: TrafficProfile = DEFAULT_TRAFFIC_PROFILE,
): TrafficProfileReading {
  if (!isRecord(raw)) throw new Error(`${fallbackName}: a traffic profile is a JSON object`);
  const warnings: string[] = [];
  const fields = TrafficProfileSchema.properties as Record<string, TSchema>;
  const profile = JSON.parse(JSON.stringify(base)) as TrafficProfile;
  const name = typeof raw.name === 'string' && raw.name !== '' ? raw.name : fallbackName;
  profile.name = name;
  const warn = (entry: string, why: string) => warnings.push(`${name}: ${entry} skipped: ${why}`);

  for (const key of Object.keys(raw)) {
    if (!(key in fields)) warn(key, 'not a profile field');
  }
  const scalar = <K extends keyof TrafficProfile>(key: K) => {
    if (!(key in raw)) return;
    const why = problem(fields[key]!, raw[key]);
    if (why) warn(key, why);
    else profile[key] = raw[key] as TrafficProfile[K];
  };
  scalar('description');
  scalar('seed');
  scalar('rateScale');
  scalar('timezoneOffsetMinutes');
  scalar('concurrency');
  scalar('paused');
  scalar('returningShare');
  scalar('thinkTime');
  scalar('experiment');
  if (profile.thinkTime.maxMs < profile.thinkTime.minMs) {
    warn('thinkTime', 'maxMs is below minMs');
    profile.thinkTime = { ...base.thinkTime };
  }

  const list = <K extends 'spikes' | 'devices' | 'networks' | 'locales' | 'switches' | 'scenarios'>(
    key: K,
    entrySchema: TSchema,
    label: (entry: unknown) => string | undefined,
  ) => {
    if (!(key in raw)) return;
    const value = raw[key];
    if (!Array.isArray(value)) return warn(key, 'must be a list');
    const kept = value.filter((entry, index) => {
      const why = problem(entrySchema, entry);
      if (why === undefined) return true;
      const named = label(entry);
      warn(`${key}.${index}${named ? ` "${named}"` : ''}`, why);
      return false;
    });
    if (kept.length > 0 || value.length === 0) profile[key] = kept as TrafficProfile[K];
  };
  const field = (prop: string) => (entry: unknown) =>
    isRecord(entry) && typeof entry[prop] === 'string' ? (entry[prop] as string) : undefined;
  list('spikes', TrafficSpikeSchema, field('at'));
  list('devices', TrafficDeviceSchema, field('name'));
  list('networks', TrafficNetworkSchema, field('name'));
  list('locales', TrafficLocaleSchema, field('locale'));
  list('switches', TrafficSwitchSchema, () => undefined);
  list('scenarios', TrafficScenarioSchema, field('id'));
  if (profile.devices.length === 0) profile.devices = [...base.devices];
  if (profile.networks.length === 0) profile.networks = [...base.networks];
  if (profile.locales.length === 0) profile.locales = [...base.locales];

  const map = <K extends 'rate' | 'journeys' | 'dropOff'>(
    key: K,
    keyOk: (entry: string) => boolean,
    keyRule: string,
    valueSchema: TSchema,
  ) => {
    if (!(key in raw)) return;
    const value = raw[key];
    if (!isRecord(value)) return warn(key, 'must be an object');
    const kept: Record<string, number> = {};
    for (const [entry, entryValue] of Object.entries(value)) {
      if (!keyOk(entry)) warn(`${key}.${entry}`, keyRule);
      else {
        const why = problem(valueSchema, entryValue);
        if (why) warn(`${key}.${entry}`, why);
        else kept[entry] = entryValue as number;
      }
    }
    if (Object.keys(kept).length > 0) profile[key] = kept as TrafficProfile[K];
  };
  map(
    'rate',
    (hour) => /^([0-9]|1[0-9]|2[0-3])$/.test(hour),
    'not an hour 0–23',
    Type.Number({ minimum: 0 }),
  );
  map(
    'journeys',
    (journey) => (TRAFFIC_JOURNEYS as readonly string[]).includes(journey),
    `not a journey (${TRAFFIC_JOURNEYS.join(', ')})`,
    Weight,
  );
  map(
    'dropOff',
    (step) => (TRAFFIC_FUNNEL_STEPS as readonly string[]).includes(step),
    `not a funnel step (${TRAFFIC_FUNNEL_STEPS.join(', ')})`,
    Share,
  );
  return { profile, warnings };
}

/** The api route that keeps the traffic generators' control (any number of generators read it). */
export const TRAFFIC_CONTROL_ROUTE = '/traffic/control';

/**
 * A control: profile fields laid over every running generator's profile (its name, description
 * and seed stay the run's). The same fields a control file holds.
 */
export const TrafficControlSchema = Type.Object(
  {
    rate: TrafficProfileSchema.properties.rate,
    rateScale: TrafficProfileSchema.properties.rateScale,
    spikes: TrafficProfileSchema.properties.spikes,
    timezoneOffsetMinutes: TrafficProfileSchema.properties.timezoneOffsetMinutes,
    concurrency: TrafficProfileSchema.properties.concurrency,
    paused: TrafficProfileSchema.properties.paused,
    // Any of the journeys (the profile schema's record names them all).
    journeys: Type.Optional(Type.Partial(Type.Record(literalUnion(TRAFFIC_JOURNEYS), Weight))),
    devices: TrafficProfileSchema.properties.devices,
    networks: TrafficProfileSchema.properties.networks,
    locales: TrafficProfileSchema.properties.locales,
    returningShare: TrafficProfileSchema.properties.returningShare,
    switches: TrafficProfileSchema.properties.switches,
    scenarios: TrafficProfileSchema.properties.scenarios,
    thinkTime: TrafficProfileSchema.properties.thinkTime,
    dropOff: Type.Optional(Type.Partial(Type.Record(literalUnion(TRAFFIC_FUNNEL_STEPS), Share))),
  },
  { additionalProperties: false },
);
export type TrafficControl = Static<typeof TrafficControlSchema>;

/** What GET and PUT /traffic/control answer. */
export const TrafficControlStateSchema = Type.Object({
  /** null until an operator sets one (or after it was cleared). */
  control: Type.Union([TrafficControlSchema, Type.Null()]),
  updatedAt: Type.Union([Type.Integer(), Type.Null()]),
  updatedBy: Type.Union([Type.String(), Type.Null()]),
});
export type TrafficControlState = Static<typeof TrafficControlStateSchema>;
