import { Type, type Static } from 'typebox';
import { MAX_EXPOSURE_KEY_LENGTH } from '@showroom/contracts/exposures';

/** Largest request body the intake reads (the SDKs flush at 16 KiB; sendBeacon caps at 64 KiB). */
export const MAX_INTAKE_BODY_BYTES = 5 * 1024 * 1024;
/** Largest body once inflated: a deflate bomb stops here. */
export const MAX_INFLATED_BYTES = 20 * 1024 * 1024;
/** Longest id, key or service name stored. */
const MAX_KEY_LENGTH = MAX_EXPOSURE_KEY_LENGTH;

const Key = Type.String({ maxLength: MAX_KEY_LENGTH });
const Keyed = Type.Object({ key: Type.String({ minLength: 1, maxLength: MAX_KEY_LENGTH }) });

export const IntakeQuerySchema = Type.Object({
  ddforward: Type.String({
    minLength: 1,
    maxLength: 4096,
    description:
      'The Datadog intake path the browser SDK would have called, URL-encoded, e.g. `/api/v2/exposures?ddsource=browser`',
  }),
});
export type IntakeQuery = Static<typeof IntakeQuerySchema>;

export const IntakeAcceptedSchema = Type.Object({
  track: Type.String({ description: 'rum, replay, logs, exposures, flagevaluation…' }),
  accepted: Type.Integer({ minimum: 0, description: 'Events stored from this batch' }),
});

// The exposure event's schema is shared with the web, which sends some exposures itself.
export { ExposureEventSchema, type ExposureEvent } from '@showroom/contracts/exposures';

/** One aggregated flag evaluation, as the provider sends it to `/api/v2/flagevaluation`. */
export const FlagEvaluationEventSchema = Type.Object({
  flag: Keyed,
  first_evaluation: Type.Number({ minimum: 0 }),
  last_evaluation: Type.Number({ minimum: 0 }),
  evaluation_count: Type.Integer({ minimum: 1 }),
  runtime_default_used: Type.Boolean(),
  timestamp: Type.Number({ minimum: 0 }),
  targeting_key: Type.Optional(Key),
  error: Type.Optional(Type.Object({ message: Type.String() })),
  variant: Type.Optional(Keyed),
  allocation: Type.Optional(Keyed),
  targeting_rule: Type.Optional(Keyed),
  context: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
});
export type FlagEvaluationEvent = Static<typeof FlagEvaluationEventSchema>;

/** What the RUM profiler reads from its quota check. */
export const ProfilingQuotaSchema = Type.Object({
  data: Type.Object({
    attributes: Type.Object({ admitted: Type.Boolean(), reason: Type.String() }),
  }),
});
