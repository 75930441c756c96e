import { Type, type Static } from 'typebox';
import { literalUnion } from './catalog.js';
import {
  SIGNAL_EVENT_TYPES,
  SIGNAL_VIEW_METRICS,
  type EventMatch,
  type SignalRule,
} from './scenario-signals.js';
import { SCENARIO_CATEGORIES, scenarioLink, SCENARIO_ID_PATTERN } from './scenario-link.js';
import { GUARD_ACTIONS, GuardMetricSchema } from './guards.js';
import { AutopilotProfileSchema, AUTOPILOT_SEED_MAX, MINUTE_MS } from './autopilot.js';

export {
  SCENARIO_CATEGORIES,
  scenarioLink,
  scenarioStartPath,
  SCENARIO_ID_PATTERN,
  SCENARIO_QUERY_KEY,
} from './scenario-link.js';

/**
 * The scenario catalogue (docs/decisions/011-scenario-catalogue.md): one data file,
 * `data/scenarios.json`, read by the api (`GET /scenarios`, which /scenarios and /demo render),
 * by the scenario-proof tests and by the traffic generator. Each scenario names what it
 * demonstrates, what it changes (query switches and flag changes), the pages it affects, the
 * journey that shows it, and the signal it promises as a rule checked against the monitoring
 * data (scenario-signals.ts).
 */

const RegexSource = Type.String({
  minLength: 1,
  maxLength: 200,
  description: 'A JavaScript regular expression (source, no slashes)',
});

export const EventMatchSchema = Type.Object(
  {
    type: literalUnion(SIGNAL_EVENT_TYPES),
    name: Type.Optional(Type.String({ minLength: 1 })),
    message: Type.Optional(RegexSource),
    url: Type.Optional(RegexSource),
    path: Type.Optional(RegexSource),
    context: Type.Optional(
      Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean()])),
    ),
    minDurationMs: Type.Optional(Type.Number({ minimum: 0 })),
  },
  { additionalProperties: false },
);

const Share = Type.Number({ minimum: 0, maximum: 1 });

export const SignalRuleSchema = Type.Union([
  Type.Object(
    {
      kind: Type.Literal('sessions-with'),
      match: EventMatchSchema,
      atLeast: Type.Optional(Type.Integer({ minimum: 1 })),
      minShare: Share,
      maxShare: Type.Optional(Share),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      kind: Type.Literal('view-percentile'),
      metric: literalUnion(SIGNAL_VIEW_METRICS),
      path: RegexSource,
      percentile: Type.Number({ minimum: 1, maximum: 100 }),
      above: Type.Optional(Type.Number({ minimum: 0 })),
      below: Type.Optional(Type.Number({ minimum: 0 })),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      kind: Type.Literal('ratio'),
      numerator: EventMatchSchema,
      denominator: Type.Array(EventMatchSchema, { minItems: 1 }),
      min: Type.Optional(Type.Number({ minimum: 0 })),
      max: Type.Optional(Type.Number({ minimum: 0 })),
    },
    { additionalProperties: false },
  ),
]);

/** Where a journey step acts: a test id, a role with its accessible name, or a label. */
export const StepTargetSchema = Type.Object(
  {
    testId: Type.Optional(Type.String({ minLength: 1 })),
    role: Type.Optional(Type.String({ minLength: 1 })),
    name: Type.Optional(Type.String({ minLength: 1 })),
    label: Type.Optional(Type.String({ minLength: 1 })),
  },
  { additionalProperties: false },
);
export type StepTarget = Static<typeof StepTargetSchema>;

const SimpleStepSchema = Type.Union([
  Type.Object(
    { action: Type.Literal('visit'), path: Type.String({ pattern: '^/' }) },
    { additionalProperties: false },
  ),
  Type.Object(
    { action: Type.Literal('click'), target: StepTargetSchema },
    { additionalProperties: false },
  ),
  Type.Object(
    { action: Type.Literal('expect'), target: StepTargetSchema },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      action: Type.Literal('addToCart'),
      description: Type.Optional(Type.String()),
    },
    { additionalProperties: false, description: 'On a product page: add one to the cart' },
  ),
  Type.Object(
    { action: Type.Literal('checkout') },
    {
      additionalProperties: false,
      description:
        'Open /checkout and place the order with a test address and card, in whichever flow the page shows; the outcome (an order or an error) is what the scenario is about',
    },
  ),
]);

export const JourneyStepSchema = Type.Union([
  SimpleStepSchema,
  Type.Object(
    {
      action: Type.Literal('repeat'),
      times: Type.Integer({ minimum: 1, maximum: 10 }),
      steps: Type.Array(SimpleStepSchema, { minItems: 1 }),
    },
    { additionalProperties: false },
  ),
]);
export type JourneyStep = Static<typeof JourneyStepSchema>;

export const FlagChangeSchema = Type.Object(
  {
    flag: Type.String({ minLength: 1 }),
    enabled: Type.Optional(Type.Boolean()),
    /** Allocation whose rollout is set (with `rolloutPercentage`). */
    allocation: Type.Optional(Type.String({ minLength: 1 })),
    rolloutPercentage: Type.Optional(Type.Number({ minimum: 0, maximum: 100 })),
    /**
     * The variation the allocation serves while the scenario runs (with `allocation`, whose one
     * split it changes): a fault's stronger value. Put back when the scenario stops.
     */
    variation: Type.Optional(Type.String({ minLength: 1 })),
    /**
     * The allocation's targeting rules while the scenario runs (with `allocation`): a fault
     * aimed at some shoppers only, e.g. the orders placed in one checkout flow. Any rule
     * matching lets a subject in; the rules before are put back when the scenario stops.
     */
    rules: Type.Optional(
      Type.Array(
        Type.Object(
          {
            conditions: Type.Array(
              Type.Object(
                {
                  attribute: Type.String({ minLength: 1 }),
                  operator: Type.String({ minLength: 1 }),
                  value: Type.Unknown(),
                },
                { additionalProperties: false },
              ),
              { minItems: 1 },
            ),
          },
          { additionalProperties: false },
        ),
      ),
    ),
  },
  { additionalProperties: false },
);
export type ScenarioFlagChange = Static<typeof FlagChangeSchema>;

/**
 * A guarded rollout the scenario starts (docs/decisions/020-guarded-rollout-scenario.md): the
 * guard of PUT /flags/{key}/guard (decision 019) with its times in the scenario's minutes, so a
 * test or a quick demo can run it with seconds for minutes.
 */
export const ScenarioRolloutSchema = Type.Object(
  {
    flag: Type.String({ minLength: 1 }),
    allocation: Type.String({ minLength: 1 }),
    control: Type.String({ minLength: 1 }),
    treatment: Type.String({ minLength: 1 }),
    metric: GuardMetricSchema,
    margin: Type.Number({ minimum: 0 }),
    minSessions: Type.Integer({ minimum: 1 }),
    action: literalUnion(GUARD_ACTIONS),
    steps: Type.Array(Type.Number({ minimum: 0, maximum: 100 }), { minItems: 1, maxItems: 20 }),
    holdMinutes: Type.Number({ minimum: 0 }),
    checkEveryMinutes: Type.Number({ exclusiveMinimum: 0 }),
  },
  { additionalProperties: false },
);
export type ScenarioRollout = Static<typeof ScenarioRolloutSchema>;

/** A schedule the scenario hands to the autopilot (decision 018): its profile and seed. */
export const ScenarioAutopilotSchema = Type.Object(
  {
    profile: AutopilotProfileSchema,
    seed: Type.Integer({ minimum: 0, maximum: AUTOPILOT_SEED_MAX }),
  },
  { additionalProperties: false },
);
export type ScenarioAutopilot = Static<typeof ScenarioAutopilotSchema>;

/** The autopilot's profile name while a scenario drives it. */
export const scenarioAutopilotName = (scenarioId: string) => `scenario:${scenarioId}`;

/** POST /scenarios/{id}/start's query: how long one of the scenario's minutes lasts. */
export const ScenarioStartQuerySchema = Type.Object({
  minuteMs: Type.Optional(
    Type.Integer({
      minimum: 100,
      maximum: 3_600_000,
      default: MINUTE_MS,
      description:
        "How long one of the scenario's minutes (rollout holds, checks, autopilot periods) lasts, ms; a test or a quick demo runs seconds for minutes",
    }),
  ),
});

export const ScenarioSchema = Type.Object(
  {
    id: Type.String({ pattern: SCENARIO_ID_PATTERN.source, maxLength: 60 }),
    title: Type.String({ minLength: 1, maxLength: 80 }),
    category: literalUnion(SCENARIO_CATEGORIES),
    demonstrates: Type.String({ minLength: 1 }),
    /** The page the scenario link opens (with `switches` and the scenario tag). */
    entry: Type.String({ pattern: '^/' }),
    /** Query switches (docs/requirements.md §4) the link carries. */
    switches: Type.Record(Type.String(), Type.String()),
    /** Changes made on the flag service when the scenario starts, undone when it stops. */
    flagChanges: Type.Array(FlagChangeSchema),
    /** Pages whose behaviour changes. */
    pages: Type.Array(Type.String({ pattern: '^/' }), { minItems: 1 }),
    /** What opening the link leaves in the browser's storage (string values, as stored). */
    promises: Type.Object(
      {
        localStorage: Type.Optional(Type.Record(Type.String(), Type.String())),
        sessionStorage: Type.Optional(Type.Record(Type.String(), Type.String())),
      },
      { additionalProperties: false },
    ),
    signal: Type.Object(
      {
        description: Type.String({ minLength: 1 }),
        rule: SignalRuleSchema,
      },
      { additionalProperties: false },
    ),
    /** What a shopper does after the link opens `entry` (proofs and the traffic generator). */
    journey: Type.Array(JourneyStepSchema),
    /** A guarded rollout started with the scenario and removed when it stops. */
    rollout: Type.Optional(ScenarioRolloutSchema),
    /** A schedule of fault scenarios the autopilot runs while the scenario runs. */
    autopilot: Type.Optional(ScenarioAutopilotSchema),
  },
  { additionalProperties: false },
);
export type Scenario = Static<typeof ScenarioSchema>;

// The schemas and the evaluator's own types must describe the same rule.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameRule: Same<Static<typeof SignalRuleSchema>, SignalRule> = true;
const sameMatch: Same<Static<typeof EventMatchSchema>, EventMatch> = true;
void sameRule;
void sameMatch;

/** A scenario as `GET /scenarios` answers it: with its link. */
export const ScenarioViewSchema = Type.Intersect([
  ScenarioSchema,
  Type.Object({
    link: Type.String({ description: 'The address that opens it, with switches and tag' }),
  }),
]);
export type ScenarioView = Static<typeof ScenarioViewSchema>;

export const ScenarioRunSchema = Type.Object({
  id: Type.Integer(),
  scenarioId: Type.String(),
  startedAt: Type.Integer({ description: 'Epoch ms' }),
  startedBy: Type.String(),
  stoppedAt: Type.Union([Type.Integer(), Type.Null()]),
  stoppedBy: Type.Union([Type.String(), Type.Null()]),
});
export type ScenarioRun = Static<typeof ScenarioRunSchema>;

export const ScenarioListSchema = Type.Object({
  scenarios: Type.Array(ScenarioViewSchema),
  /** Runs not stopped yet (scenarios that changed flags), newest first. */
  active: Type.Array(ScenarioRunSchema),
});
export type ScenarioList = Static<typeof ScenarioListSchema>;

export const ScenarioParamsSchema = Type.Object({
  id: Type.String({ pattern: SCENARIO_ID_PATTERN.source, maxLength: 60 }),
});

export const ScenarioStartResultSchema = Type.Object({
  scenario: ScenarioViewSchema,
  /** The run when the scenario changed flags (null for one made of query switches only). */
  run: Type.Union([ScenarioRunSchema, Type.Null()]),
  /** Where the browser goes next: the scenario's link. */
  link: Type.String(),
});
export type ScenarioStartResult = Static<typeof ScenarioStartResultSchema>;

export const ScenarioStopResultSchema = Type.Object({
  run: Type.Union([ScenarioRunSchema, Type.Null()], {
    description: 'The run stopped, or null when none was active',
  }),
});

export const PROOF_SESSIONS_DEFAULT = 10;
export const PROOF_SESSIONS_MAX = 200;

export const ProofQuerySchema = Type.Object({
  sessions: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: PROOF_SESSIONS_MAX,
      default: PROOF_SESSIONS_DEFAULT,
      description: 'How many of the latest sessions tagged with each scenario count',
    }),
  ),
});

export const ScenarioProofSchema = Type.Object({
  scenarioId: Type.String(),
  title: Type.String(),
  rule: Type.String({ description: 'The signal as the catalogue describes it' }),
  sessions: Type.Integer({ minimum: 0, description: 'Sessions tagged with the scenario counted' }),
  measured: Type.Union([Type.Number(), Type.Null()]),
  measuredText: Type.String({ description: 'The measured value as a person reads it' }),
  basis: Type.String(),
  status: literalUnion(['proven', 'not seen'] as const),
});
export type ScenarioProof = Static<typeof ScenarioProofSchema>;

export const ScenarioProofListSchema = Type.Object({
  sessions: Type.Integer(),
  proofs: Type.Array(ScenarioProofSchema),
});
export type ScenarioProofList = Static<typeof ScenarioProofListSchema>;

/** The link of a scenario as the catalogue gives it. */
export function linkOf(scenario: Pick<Scenario, 'id' | 'entry' | 'switches'>): string {
  return scenarioLink(scenario.entry, scenario.switches, scenario.id);
}
