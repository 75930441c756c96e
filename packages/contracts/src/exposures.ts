import { Type, type Static } from 'typebox';

/**
 * A flag exposure (docs/architecture.md "Flags"): a subject was shown a flag's variant. The
 * Datadog browser provider sends these to the monitoring intake's exposures track; the shop
 * sends the same events itself for what that provider does not see — the OFREP web provider's
 * evaluations and the client-side instant_pay experiment — so experiment results count
 * every exposure from one table.
 */

export { EXPOSURES_FORWARD_PATH } from './experiment-constants.js';

/** Longest id, key or service name the intake stores. */
export const MAX_EXPOSURE_KEY_LENGTH = 1024;

const Key = Type.String({ maxLength: MAX_EXPOSURE_KEY_LENGTH });
const Keyed = Type.Object({
  key: Type.String({ minLength: 1, maxLength: MAX_EXPOSURE_KEY_LENGTH }),
});

/** One exposure, as `@datadog/openfeature-browser` sends it to `/api/v2/exposures`. */
export const ExposureEventSchema = Type.Object({
  allocation: Keyed,
  flag: Keyed,
  variant: Keyed,
  subject: Type.Object({
    id: Key,
    attributes: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  }),
  timestamp: Type.Number({ minimum: 0, description: 'Epoch ms' }),
  service: Type.Optional(Key),
});
export type ExposureEvent = Static<typeof ExposureEventSchema>;
