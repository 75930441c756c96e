import { isErrorCode, type ErrorCode } from '@showroom/contracts/error-codes';

/**
 * The one browser client for the api (docs/architecture.md "Errors"; ): JSON in and out,
 * the session cookie, a timeout per attempt, the product's retry policy, and every failure as
 * an {@link ApiError} carrying a contract error code. Pages call it through shop-api.ts.
 */

/** answers worth one more try — timeouts, conflicts, too early, rate limits, 5xx. */
export const RETRY_STATUSES: ReadonlySet<number> = new Set([
  408, 409, 425, 429, 500, 502, 503, 504,
]);

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** writes are never retried (a retry could do the work twice); other methods once. */
export function retriesFor(method: HttpMethod): number {
  return method === 'GET' || method === 'HEAD' ? 1 : 0;
}

/** How long one attempt may take before it is abandoned. */
export const REQUEST_TIMEOUT_MS = 15_000;
/** Pause before the retry; a `Retry-After` of up to RETRY_AFTER_MAX_MS is honoured instead. */
export const RETRY_DELAY_MS = 250;
export const RETRY_AFTER_MAX_MS = 2_000;

/** Failures that never reached an api answer. */
export type TransportErrorCode = 'NETWORK_ERROR' | 'TIMEOUT' | 'BAD_RESPONSE';

/**
 * A call that did not succeed. `status` is the HTTP status (0 when no answer came); `code` is
 * the api's contract code, or a transport code; `field` is the request field at fault.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: ErrorCode | TransportErrorCode,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

export interface RequestOptions {
  body?: unknown;
  headers?: Record<string, string>;
  /**
   * Whether a failure without an answer the page can act on (no answer, a 5xx) goes to the
   * failure listeners (the error modal). Pages that show such a failure themselves say false.
   */
  report?: boolean;
  /**
   * The caller's cancel (a newer search keystroke): an aborted call is neither retried nor
   * reported, and fails with the fetch's own `AbortError`, not an {@link ApiError}.
   */
  signal?: AbortSignal;
}

export type FailureListener = (error: ApiError, call: { method: HttpMethod; path: string }) => void;

export interface ApiClientOptions {
  /** Absolute base address of the api, e.g. `http://localhost:3000/api`. */
  baseUrl: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
  /** Waits between attempts; injected by tests. */
  sleep?: (ms: number) => Promise<void>;
}

const listeners = new Set<FailureListener>();

/** Subscribes to reported failures (the error modal does); answers the unsubscribe. */
export function onApiFailure(listener: FailureListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function createApiClient(options: ApiClientOptions) {
  const base = options.baseUrl.replace(/\/+$/, '');
  const fetchImpl = options.fetch ?? ((input, init) => fetch(input, init));
  const timeoutMs = options.timeoutMs ?? REQUEST_TIMEOUT_MS;
  const sleep = options.sleep ?? wait;

  async function attempt(method: HttpMethod, path: string, request: RequestOptions) {
    const { body, headers = {}, signal } = request;
    const timeout = AbortSignal.timeout(timeoutMs);
    try {
      return await fetchImpl(`${base}${path}`, {
        method,
        credentials: 'include',
        headers: {
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        body: body === undefined ? null : JSON.stringify(body),
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
    } catch (error) {
      if (signal?.aborted) throw error;
      const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
      return timedOut
        ? new ApiError(0, 'TIMEOUT', `The shop did not answer within ${timeoutMs / 1000} s.`)
        : new ApiError(0, 'NETWORK_ERROR', 'The shop could not be reached.');
    }
  }

  async function send<T>(method: HttpMethod, path: string, request: RequestOptions): Promise<T> {
    let retriesLeft = retriesFor(method);
    for (;;) {
      const answer = await attempt(method, path, request);
      if (answer instanceof ApiError) {
        if (retriesLeft-- > 0) {
          await sleep(RETRY_DELAY_MS);
          continue;
        }
        throw answer;
      }
      if (!answer.ok && RETRY_STATUSES.has(answer.status) && retriesLeft-- > 0) {
        await sleep(retryDelay(answer.headers.get('retry-after')));
        continue;
      }
      return readAnswer<T>(answer);
    }
  }

  async function request<T>(
    method: HttpMethod,
    path: string,
    request: RequestOptions = {},
  ): Promise<T> {
    try {
      return await send<T>(method, path, request);
    } catch (error) {
      // send() fails with an ApiError (attempt() and readAnswer() turn everything into one),
      // or with the AbortError of the caller's own cancel, which is not reported.
      if (
        (request.report ?? true) &&
        error instanceof ApiError &&
        (error.status === 0 || error.status >= 500)
      ) {
        for (const listener of listeners) listener(error, { method, path });
      }
      throw error;
    }
  }

  return { request };
}

export type ApiClient = ReturnType<typeof createApiClient>;

function retryDelay(retryAfter: string | null): number {
  const seconds = Number(retryAfter);
  if (retryAfter === null || !Number.isFinite(seconds) || seconds < 0) return RETRY_DELAY_MS;
  return Math.min(seconds * 1000, RETRY_AFTER_MAX_MS);
}

async function readAnswer<T>(response: Response): Promise<T> {
  if (response.status === 204) return undefined as T;
  const payload: unknown = await response.json().catch(() => undefined);
  if (response.ok) {
    if (payload === undefined) {
      throw new ApiError(
        response.status,
        'BAD_RESPONSE',
        'The shop answered something unreadable.',
      );
    }
    return payload as T;
  }
  const error = errorOf(payload);
  if (error) throw new ApiError(response.status, error.code, error.message, error.field);
  throw new ApiError(
    response.status,
    response.status >= 500 ? 'INTERNAL' : 'BAD_RESPONSE',
    `The shop answered ${response.status}.`,
  );
}

/** The api's error envelope, when the body is one with a contract code. */
function errorOf(
  payload: unknown,
): { code: ErrorCode; message: string; field?: string } | undefined {
  if (typeof payload !== 'object' || payload === null || !('error' in payload)) return undefined;
  const error = (payload as { error: unknown }).error;
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, message, field } = error as Record<string, unknown>;
  if (!isErrorCode(code) || typeof message !== 'string') return undefined;
  return typeof field === 'string' ? { code, message, field } : { code, message };
}
