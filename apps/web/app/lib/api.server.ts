import { data } from 'react-router';
import type { ErrorResponse } from '@showroom/contracts/errors';
import { operatorAuthorization, operatorTokenOfCookies } from '@showroom/contracts/security';
import { apiTarget } from '../../server/api-target';

/** An api error answer as read here: the contract's envelope, or nothing usable. */
export type ApiErrorBody = Partial<ErrorResponse>;

/** The api answered with an error status; `status` and `body` are what it said. */
export class ApiResponseError extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiErrorBody,
  ) {
    super(body.error?.message ?? `Shop api answered ${status}`);
    this.name = 'ApiResponseError';
  }
}

/**
 * Calls the shop api from a loader. A network failure becomes a 500 page whose description says
 * what failed (React Router hides plain Error messages in production builds).
 */
export async function apiGet<T>(path: string, request?: Request): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`${apiTarget()}${path}`, {
      headers: forwardedHeaders(request),
      signal: request?.signal,
    });
  } catch (err) {
    throw data(
      {
        message: `The shop api could not be reached (${err instanceof Error ? err.message : String(err)})`,
      },
      { status: 500 },
    );
  }
  if (!response.ok) {
    const body = (await response.json().catch(() => ({}))) as ApiErrorBody;
    throw new ApiResponseError(response.status, body);
  }
  return (await response.json()) as T;
}

/**
 * The browser's cookie (its session) and User-Agent (its browser family): the api evaluates
 * flags for the same subject the browser sends (R-4.19; fault flags, decision 010). The operator
 * cookie's token goes as `Authorization: Bearer` (docs/reliability.md "Security").
 */
function forwardedHeaders(request: Request | undefined): HeadersInit {
  const headers: Record<string, string> = { accept: 'application/json' };
  const cookie = request?.headers.get('cookie');
  if (cookie) headers.cookie = cookie;
  const operatorToken = operatorTokenOfCookies(cookie);
  if (operatorToken) headers.authorization = operatorAuthorization(operatorToken);
  const userAgent = request?.headers.get('user-agent');
  if (userAgent) headers['user-agent'] = userAgent;
  return headers;
}

export type ApiWriteResult<T> =
  { ok: true; data: T } | { ok: false; status: number; error: ApiErrorBody['error'] };

/**
 * Sends a write to the api from an action. A 4xx comes back as a value for the page to show
 * (the api names the field); a network failure or 5xx becomes the error page. A `body` of
 * `undefined` sends none (a DELETE): the api refuses an empty body declared as JSON.
 */
export async function apiSend<T>(
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  body: unknown,
  request: Request,
  headers: Record<string, string> = {},
): Promise<ApiWriteResult<T>> {
  let response: Response;
  try {
    response = await fetch(`${apiTarget()}${path}`, {
      method,
      headers: {
        ...forwardedHeaders(request),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch (err) {
    throw data(
      {
        message: `The shop api could not be reached (${err instanceof Error ? err.message : String(err)})`,
      },
      { status: 500 },
    );
  }
  const payload = (await response.json().catch(() => ({}))) as unknown;
  if (response.ok) return { ok: true, data: payload as T };
  if (response.status >= 500) throw new ApiResponseError(response.status, payload as ApiErrorBody);
  return { ok: false, status: response.status, error: (payload as ApiErrorBody).error };
}
