import { data } from 'react-router';

export function apiBaseUrl(): string {
  return process.env.API_URL ?? `http://127.0.0.1:${process.env.API_PORT ?? '3001'}`;
}

export interface ApiErrorBody {
  error?: { code?: string; message?: string; field?: string };
}

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
    response = await fetch(`${apiBaseUrl()}${path}`, {
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

function forwardedHeaders(request: Request | undefined): HeadersInit {
  const headers: Record<string, string> = { accept: 'application/json' };
  const cookie = request?.headers.get('cookie');
  if (cookie) headers.cookie = cookie;
  return headers;
}
