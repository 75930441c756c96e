import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyRequest } from 'fastify';
import { buildFlagSubject, type FlagSubject } from '@showroom/contracts/flag-subject';
import {
  FAULT_FLAG_KEYS,
  FAULT_FLAGS,
  imageHintFor,
  type FaultFlagKey,
  type FaultValue,
  type ImageHint,
} from '@showroom/contracts/faults';
import { requestBrowserFamily } from '../../http/browser-family.js';
import type { EvaluateFlagValue } from '../flags/evaluate.js';
import type { ShopSession } from '../session/repository.js';
import type { FindSession } from '../session/require-session.js';

/**
 * The fault flags of one request (docs/decisions/010-fault-flags.md), evaluated by the flag
 * service for the request's shopper with the subject the browser sends (the contract's
 * buildFlagSubject, as the free-shipping threshold). An active fault is put on the request's
 * server span: `fault.flag` and `fault.value` (every active fault, comma-separated, when
 * several are), and `fault.<key>` per fault.
 */
export interface RequestFaults {
  /**
   * The fault's value for the request's shopper: the flag's, checked and capped by the
   * contract's FAULT_FLAGS, else the off value (0 or false). `session` when the route has it;
   * otherwise the cookie's session is read (none: an anonymous subject).
   */
  value<K extends FaultFlagKey>(
    request: FastifyRequest,
    key: K,
    session?: ShopSession | null,
    /** Attributes of this request only (the order's checkout flow), added to the subject. */
    extra?: Partial<FlagSubject['attributes']>,
  ): Promise<FaultValue<K>>;
  /** Waits as long as a latency fault says for this shopper; answers the milliseconds waited. */
  delay(
    request: FastifyRequest,
    key: 'fault_product_api_latency_ms',
    session?: ShopSession | null,
  ): Promise<number>;
  /** How the web must change product image URLs for this shopper; undefined when unchanged. */
  imageHint(request: FastifyRequest): Promise<ImageHint | undefined>;
}

export interface RequestFaultsOptions {
  /** The flag service's evaluation (flags module, plain function call). */
  evaluate: EvaluateFlagValue;
  /** The cookie's session, for routes that do not require one (the catalog). */
  findSession: FindSession;
}

export function createRequestFaults({
  evaluate,
  findSession,
}: RequestFaultsOptions): RequestFaults {
  /** Active faults per request, for the span's combined `fault.flag` / `fault.value`. */
  const active = new WeakMap<FastifyRequest, Map<FaultFlagKey, number | boolean>>();

  const markActive = (request: FastifyRequest, key: FaultFlagKey, value: number | boolean) => {
    let faults = active.get(request);
    if (!faults) active.set(request, (faults = new Map()));
    faults.set(key, value);
    // In the contract's order, whichever evaluation finished first.
    const keys = FAULT_FLAG_KEYS.filter((candidate) => faults.has(candidate));
    request.trace?.span.setAttributes({
      'fault.flag': keys.join(','),
      'fault.value': keys.length === 1 ? value : keys.map((k) => faults.get(k)).join(','),
      [`fault.${key}`]: value,
    });
    request.log.info({ 'fault.flag': key, 'fault.value': value }, 'fault flag active');
  };

  const value = async <K extends FaultFlagKey>(
    request: FastifyRequest,
    key: K,
    session?: ShopSession | null,
    extra?: Partial<FlagSubject['attributes']>,
  ): Promise<FaultValue<K>> => {
    // Called by the evaluator only when the flag is enabled: no session read otherwise.
    const subject = async () => {
      const known = session === undefined ? await findSession(request) : session;
      const built = buildFlagSubject(known?.shopper ?? null, requestBrowserFamily(request));
      return extra ? { ...built, attributes: { ...built.attributes, ...extra } } : built;
    };
    const checked = checkFaultValue(key, await evaluate(key, subject));
    if (checked !== FAULT_FLAGS[key].off) markActive(request, key, checked);
    return checked;
  };

  return {
    value,
    async delay(request, key, session) {
      const ms = await value(request, key, session);
      if (ms > 0) await sleep(ms);
      return ms;
    },
    async imageHint(request) {
      const [delayMs, broken] = await Promise.all([
        value(request, 'fault_slow_product_images_ms'),
        value(request, 'fault_broken_product_images'),
      ]);
      return imageHintFor(delayMs, broken);
    },
  };
}

/**
 * A served value as the fault uses it: a boolean flag's boolean; an integer flag's whole number
 * from 1 up to its `max` (larger values are capped); anything else (missing, disabled, not
 * assigned, negative, a fraction) is the off value.
 */
export function checkFaultValue<K extends FaultFlagKey>(key: K, served: unknown): FaultValue<K> {
  const flag: { type: 'INTEGER' | 'BOOLEAN'; max?: number } = FAULT_FLAGS[key];
  if (flag.type === 'BOOLEAN') return (served === true) as FaultValue<K>;
  const ok = typeof served === 'number' && Number.isSafeInteger(served) && served > 0;
  return (ok ? Math.min(served, flag.max ?? served) : 0) as FaultValue<K>;
}
