import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiError, errorRef } from '../../http/errors.js';
import type { SessionRepository } from './repository.js';
import type { RequireSession } from './require-session.js';
import { BindShopperBodySchema, SessionViewSchema } from '@showroom/contracts/session';
import type { ShopperDirectory } from './shoppers.js';
import type { SessionViewOf } from './view.js';

export interface SessionRoutesOptions {
  requireSession: RequireSession;
  sessions: SessionRepository;
  shoppers: ShopperDirectory;
  view: SessionViewOf;
}

export const sessionRoutes: FastifyPluginAsyncTypebox<SessionRoutesOptions> = async (
  app,
  { requireSession, sessions, shoppers, view },
) => {
  app.get(
    '/session',
    {
      schema: {
        tags: ['session'],
        summary: "The caller's session: bound sample shopper, discount and cart count",
        description: 'Creates the session (and sets its cookie) on first use.',
        response: { 200: SessionViewSchema },
      },
    },
    async (request, reply) => view(await requireSession(request, reply)),
  );

  app.put(
    '/session/shopper',
    {
      schema: {
        tags: ['session'],
        summary: 'Bind the session to a sample shopper',
        description:
          'The server looks the id up in its shopper lists; the discount follows that record.',
        body: BindShopperBodySchema,
        response: { 200: SessionViewSchema, 400: errorRef, 404: errorRef },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request, reply);
      // Signed in, the persona is the account: a sample identity does not replace it.
      if (session.account) return view(session);
      const found = await shoppers.find(request.body.shopperId);
      if (!found) {
        throw new ApiError(
          404,
          'SHOPPER_NOT_FOUND',
          `No sample shopper has id "${request.body.shopperId}"`,
          'shopperId',
        );
      }
      await sessions.bindShopper(session.id, found.shopper, found.list, new Date());
      const updated = await sessions.find(session.id);
      return view(updated ?? session);
    },
  );

  app.delete(
    '/session/shopper',
    {
      schema: {
        tags: ['session'],
        summary: 'Unbind the sample shopper (an anonymous session)',
        response: { 200: SessionViewSchema },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request, reply);
      if (session.account) return view(session);
      await sessions.unbindShopper(session.id, new Date());
      return view({ ...session, shopper: null });
    },
  );
};
