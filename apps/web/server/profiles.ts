import type { RequestHandler } from 'express';
import type { ErrorResponse } from '@showroom/contracts/errors';

/** Validated deployment profiles by key, as the page code loads them (runtime-config.server). */
export type RuntimeProfiles = Readonly<Record<string, unknown>>;

/**
 * One deployment profile as JSON, for a browser whose profile choice differs from the one its
 * document carries (the app's profilePath builds these URLs: `/profiles/<key>.json`).
 */
export const PROFILE_ROUTE = '/profiles/:key.json';

export function profileHandler(
  profiles: () => RuntimeProfiles | Promise<RuntimeProfiles>,
): RequestHandler {
  return async (request, response, next) => {
    try {
      const key = String(request.params.key);
      const all = await profiles();
      const profile = Object.hasOwn(all, key) ? all[key] : undefined;
      // Profiles change with a restart (environment) or a redeploy: revalidate every time.
      response.setHeader('Cache-Control', 'no-cache');
      if (profile === undefined) {
        const notFound: ErrorResponse = {
          error: { code: 'NOT_FOUND', message: `No deployment profile "${key}"` },
        };
        response.status(404).json(notFound);
        return;
      }
      response.json(profile);
    } catch (error) {
      next(error);
    }
  };
}
