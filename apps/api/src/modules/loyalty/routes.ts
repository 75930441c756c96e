import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorRef, notFound } from '../../http/errors.js';
import {
  JoinLoyaltyBodySchema,
  LoyaltyMembershipIdParamsSchema,
  LoyaltyMembershipSchema,
  LoyaltyStatusSchema,
} from '@showroom/contracts/accounts';
import type { RequireSession } from '../session/require-session.js';
import type { Loyalty } from './service.js';

export interface LoyaltyRoutesOptions {
  requireSession: RequireSession;
  loyalty: Loyalty;
}

/** The loyalty programme: standing, joining, one membership by id (decision 008). */
export const loyaltyRoutes: FastifyPluginAsyncTypebox<LoyaltyRoutesOptions> = async (
  app,
  { requireSession, loyalty },
) => {
  app.get(
    '/loyalty',
    {
      schema: {
        tags: ['loyalty'],
        summary: "The session's membership (null when not a member) and whether it is invited",
        response: { 200: LoyaltyStatusSchema },
      },
    },
    async (request, reply) => loyalty.status(await requireSession(request, reply)),
  );

  app.post(
    '/loyalty',
    {
      schema: {
        tags: ['loyalty'],
        summary: 'Join the loyalty programme (consent required, birthday optional)',
        body: JoinLoyaltyBodySchema,
        response: { 201: LoyaltyMembershipSchema, 400: errorRef, 409: errorRef },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request, reply);
      const membership = await loyalty.join(session, request.body, new Date());
      return reply.status(201).send(membership);
    },
  );

  app.get(
    '/loyalty/memberships/:id',
    {
      schema: {
        tags: ['loyalty'],
        summary: 'One membership with its points history (404 unless it is the caller’s)',
        params: LoyaltyMembershipIdParamsSchema,
        response: { 200: LoyaltyMembershipSchema, 400: errorRef, 404: errorRef },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request, reply);
      const membership = await loyalty.find(session, request.params.id);
      if (!membership) throw notFound('Membership not found');
      return membership;
    },
  );
};
