import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorRef } from '../../http/errors.js';
import {
  ProfileViewSchema,
  UpdateProfileBodySchema,
  UpdateProfileResultSchema,
  VerifyCodeBodySchema,
} from '@showroom/contracts/accounts';
import type { RequireSession } from '../session/require-session.js';
import type { Profiles } from './service.js';
import { CODE_CHECK_ERRORS } from '../accounts/verifications.js';

export interface ProfileRoutesOptions {
  requireSession: RequireSession;
  profiles: Profiles;
  rateLimitPerMinute: number;
}

/** The caller's profile: read, edit, confirm a new e-mail address (decision 008). */
export const profileRoutes: FastifyPluginAsyncTypebox<ProfileRoutesOptions> = async (
  app,
  { requireSession, profiles, rateLimitPerMinute },
) => {
  app.get(
    '/profile',
    {
      schema: {
        tags: ['profile'],
        summary: "The session's persona: account or sample shopper, address and loyalty standing",
        response: { 200: ProfileViewSchema },
      },
    },
    async (request, reply) => profiles.view(await requireSession(request, reply)),
  );

  app.patch(
    '/profile',
    {
      schema: {
        tags: ['profile'],
        summary: 'Edit name, e-mail or shipping address',
        description:
          'A new e-mail address gets a code (answer `verification`) and is used once ' +
          'POST /profile/email-verification confirms it. `address: null` removes the address.',
        body: UpdateProfileBodySchema,
        response: { 200: UpdateProfileResultSchema, 400: errorRef, 409: errorRef },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request, reply);
      return profiles.update(session, request.body, new Date());
    },
  );

  app.post(
    '/profile/email-verification',
    {
      config: { rateLimit: { max: rateLimitPerMinute, timeWindow: 60_000 } },
      schema: {
        tags: ['profile'],
        summary: 'Confirm a new e-mail address with the code sent to it',
        body: VerifyCodeBodySchema,
        response: { 200: ProfileViewSchema, ...CODE_CHECK_ERRORS },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request, reply);
      return profiles.confirmEmail(session, request.body.code, new Date());
    },
  );
};
