import {
  TRAFFIC_FUNNEL_STEPS,
  TRAFFIC_JOURNEYS,
  type TrafficDevice,
  type TrafficFunnelStep,
  type TrafficJourney,
  type TrafficLocale,
  type TrafficNetwork,
  type TrafficProfile,
} from '@showroom/contracts/traffic';
import { between, pickWeighted, seededRandom, sessionSeed, type Random } from './random.js';

/** Everything one session will do, decided before it starts from the seed and its index. */
export interface SessionPlan {
  index: number;
  journey: TrafficJourney;
  /** The scenario a `scenario` journey runs. */
  scenarioId: string | null;
  device: TrafficDevice;
  network: TrafficNetwork;
  locale: TrafficLocale;
  /** Comes back with a stored identity (a saved browser state) when one is kept. */
  returning: boolean;
  /** A draw in [0, 1) choosing which saved state a returning session takes. */
  returningPick: number;
  /** Query switches added to the first page. */
  switches: Record<string, string>;
  /** The funnel step where the shopper leaves (drawn from the profile's drop-off), or null. */
  leavesAt: TrafficFunnelStep | null;
  /** Think time before each action, in order (the journey uses as many as it needs, then loops). */
  thinkTimesMs: number[];
  /** Draws the journey uses for its choices (which department, product, search term). */
  choices: number[];
  /**
   * With the profile's designed experiment: the draw for a client-side variant and the draw
   * for the effect (experiment.ts); null without one, so other profiles plan as before.
   */
  experimentDraws: { variant: number; effect: number } | null;
}

const ORDER_FUNNEL = [...TRAFFIC_FUNNEL_STEPS];
const FUNNEL_STEPS_OF: Record<TrafficJourney, readonly TrafficFunnelStep[]> = {
  browse: [],
  search: [],
  sort: [],
  'abandon-cart': ['product'],
  checkout: ORDER_FUNNEL,
  'checkout-single-page': ORDER_FUNNEL,
  'signup-loyalty': [],
  scenario: [],
};

const THINK_TIMES = 16;
const CHOICES = 16;

/**
 * Plans session `index` of a run: a function of the profile and the index only, so the same seed
 * and profile give the same sequence of sessions whatever the concurrency and timing. Scenario
 * journeys need a scenario the catalogue holds: with none, they become `browse`.
 */
export function planSession(
  profile: TrafficProfile,
  index: number,
  knownScenarios?: ReadonlySet<string>,
): SessionPlan {
  const random: Random = seededRandom(sessionSeed(profile.seed, index));
  const scenarios = profile.scenarios.filter(
    (scenario) => knownScenarios === undefined || knownScenarios.has(scenario.id),
  );
  const journeyDraw = random();
  const weights = TRAFFIC_JOURNEYS.map((journey) => ({
    journey,
    weight: journey === 'scenario' && scenarios.length === 0 ? 0 : (profile.journeys[journey] ?? 0),
  }));
  const journey =
    pickWeighted(
      () => journeyDraw,
      weights,
      (entry) => entry.weight,
    )?.journey ?? 'browse';
  const scenarioDraw = random();
  const scenarioId =
    journey === 'scenario'
      ? (pickWeighted(
          () => scenarioDraw,
          scenarios,
          (entry) => entry.weight,
        )?.id ?? null)
      : null;
  const device =
    pickWeighted(random, profile.devices, (entry) => entry.weight) ?? profile.devices[0]!;
  const network =
    pickWeighted(random, profile.networks, (entry) => entry.weight) ?? profile.networks[0]!;
  const locale =
    pickWeighted(random, profile.locales, (entry) => entry.weight) ?? profile.locales[0]!;
  const returning = random() < profile.returningShare;
  const returningPick = random();
  const switches: Record<string, string> = {};
  for (const entry of profile.switches) {
    if (random() < entry.share) Object.assign(switches, entry.query);
  }
  let leavesAt: TrafficFunnelStep | null = null;
  for (const step of TRAFFIC_FUNNEL_STEPS) {
    if (leavesAt === null && random() < (profile.dropOff[step] ?? 0)) leavesAt = step;
  }
  // Only journeys on the way to an order pass the funnel's steps (an abandoned cart, its product).
  const funnel = FUNNEL_STEPS_OF[journey];
  if (leavesAt !== null && !funnel.includes(leavesAt)) leavesAt = null;
  const thinkTimesMs = Array.from({ length: THINK_TIMES }, () =>
    between(random, profile.thinkTime.minMs, profile.thinkTime.maxMs),
  );
  const choices = Array.from({ length: CHOICES }, () => random());
  // Drawn last, so a profile's sessions are the same with or without its experiment.
  const experimentDraws = profile.experiment ? { variant: random(), effect: random() } : null;
  return {
    index,
    journey: scenarioId === null && journey === 'scenario' ? 'browse' : journey,
    scenarioId,
    device,
    network,
    locale,
    returning,
    returningPick,
    switches,
    leavesAt,
    thinkTimesMs,
    choices,
    experimentDraws,
  };
}

/** One line per session, for comparing two runs' sequences. */
export function describePlan(plan: SessionPlan): string {
  const parts = [
    `#${plan.index}`,
    plan.scenarioId ? `scenario:${plan.scenarioId}` : plan.journey,
    plan.device.name,
    plan.network.name,
    plan.locale.locale,
  ];
  if (plan.returning) parts.push('returning');
  if (plan.leavesAt) parts.push(`leaves at ${plan.leavesAt}`);
  const switches = Object.entries(plan.switches);
  if (switches.length > 0) parts.push(switches.map(([key, value]) => `${key}=${value}`).join('&'));
  return parts.join(' ');
}
