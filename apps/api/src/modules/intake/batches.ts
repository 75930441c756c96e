import { badRequest } from '../../http/errors.js';
import {
  isRumEventType,
  RumEventSchema,
  RumViewEventSchema,
  toRumRows,
} from '../monitoring/rum-events.js';
import type { MonitoringStore } from '../monitoring/store.js';
import {
  createEventChecker,
  decodeBody,
  parseNdjson,
  refuseNulInColumns,
  type ForwardedTarget,
} from './decode.js';
import { multipartBoundary, parseMultipart } from './multipart.js';
import { decodeReplayUpload, jsonPart } from './replay.js';
import type { IntakeRepository } from './repository.js';
import { ExposureEventSchema, FlagEvaluationEventSchema } from './schemas.js';

const checkExposures = createEventChecker(ExposureEventSchema, 'exposure');
const checkFlagEvaluations = createEventChecker(FlagEvaluationEventSchema, 'flag evaluation');
const checkRumViews = createEventChecker(RumViewEventSchema, 'view');
const checkRumEvents = createEventChecker(RumEventSchema, 'rum');

export interface BatchStores {
  intake: IntakeRepository;
  monitoring: MonitoringStore;
  now: () => number;
}

/**
 * One batch of NDJSON (deflated or not): exposures and flag evaluations to their tables, RUM
 * events to the monitoring tables, anything else kept event by event. Every line is checked
 * before anything is written, so a bad line rejects the whole batch. Answers the events stored.
 */
export async function storeNdjsonBatch(
  stores: BatchStores,
  target: ForwardedTarget,
  body: Buffer,
): Promise<number> {
  const events = parseNdjson(await decodeBody(body, target.deflated));
  const receivedAt = stores.now();
  if (target.track === 'exposures') {
    await stores.intake.storeExposures(checkExposures(events), receivedAt);
  } else if (target.track === 'flagevaluation') {
    await stores.intake.storeFlagEvaluations(checkFlagEvaluations(events), receivedAt);
  } else if (target.track === 'rum') {
    const rum: Record<string, unknown>[] = [];
    const texts: string[] = [];
    const other: Record<string, unknown>[] = [];
    for (const line of events) {
      if (!isRumEventType(line.event.type)) {
        refuseNulInColumns(line, 'event');
        other.push(line.event);
        continue;
      }
      if (line.event.type === 'view') checkRumViews([line]);
      else checkRumEvents([line]);
      rum.push(line.event);
      texts.push(line.text);
    }
    await stores.monitoring.storeRumBatch(
      toRumRows(rum, receivedAt, texts),
      { track: target.track, events: other },
      receivedAt,
    );
  } else {
    for (const line of events) refuseNulInColumns(line, 'event');
    await stores.intake.storeEvents(
      target.track,
      events.map((line) => line.event),
      receivedAt,
    );
  }
  return events.length;
}

/**
 * One multipart upload. The replay track's `segment` + `event` parts are decoded into a replay
 * segment of the session; other uploads (replay resources, profiles) keep their `event` part.
 */
export async function storeMultipartBatch(
  stores: BatchStores,
  target: ForwardedTarget,
  body: Buffer,
  contentType: string,
): Promise<number> {
  const parts = parseMultipart(body, multipartBoundary(contentType));
  const receivedAt = stores.now();
  if (target.track === 'replay' && parts.some((part) => part.name === 'segment')) {
    const segment = await decodeReplayUpload(parts);
    const { metadata } = segment;
    await stores.monitoring.storeReplaySegment(
      {
        sessionId: metadata.session.id,
        viewId: metadata.view.id,
        applicationId: metadata.application?.id ?? null,
        indexInView: metadata.index_in_view,
        start: Math.round(metadata.start),
        end: Math.round(metadata.end),
        payload: {
          ...metadata,
          decoded: { records: segment.records, inflated_bytes: segment.inflatedBytes },
        },
      },
      receivedAt,
    );
    return 1;
  }
  if (!parts.some((part) => part.name === 'event')) {
    throw badRequest('body.event', 'multipart body has no "event" part');
  }
  await stores.intake.storeEvents(target.track, [jsonPart(parts, 'event')], receivedAt);
  return 1;
}
