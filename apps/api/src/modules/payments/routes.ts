import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errorRef, notFound } from '../../http/errors.js';
import type { RequireSession } from '../session/require-session.js';
import { validateCard } from './card-validation.js';
import { toPaymentApiError, type PaymentGateway } from './gateway.js';
import type { PaymentsRepository } from './repository.js';
import {
  PaymentMethodIdParamsSchema,
  PaymentMethodListSchema,
  PaymentMethodSchema,
  SaveCardBodySchema,
} from '@showroom/contracts/payments';
import { toPaymentMethodView } from './payment-method-view.js';

export interface PaymentMethodRoutesOptions {
  requireSession: RequireSession;
  payments: PaymentsRepository;
  gateway: PaymentGateway;
}

/** Saved cards (the showPayments feature): brand, last four and expiry; the token stays here. */
export const paymentMethodRoutes: FastifyPluginAsyncTypebox<PaymentMethodRoutesOptions> = async (
  app,
  { requireSession, payments, gateway },
) => {
  app.get(
    '/payment-methods',
    {
      schema: {
        tags: ['payments'],
        summary: "This session's saved cards",
        response: { 200: PaymentMethodListSchema },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request, reply);
      const methods = await payments.listMethods(session.id);
      return { paymentMethods: methods.map(toPaymentMethodView) };
    },
  );

  app.post(
    '/payment-methods',
    {
      schema: {
        tags: ['payments'],
        summary: 'Save a card',
        description:
          'The gateway verifies the card and answers a token; the shop keeps brand, last four, ' +
          'expiry and the token. 402 CARD_DECLINED or 502 GATEWAY_ERROR save nothing.',
        body: SaveCardBodySchema,
        response: { 201: PaymentMethodSchema, 400: errorRef, 402: errorRef, 502: errorRef },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request, reply);
      const now = new Date();
      const card = validateCard(request.body, { now });
      let token;
      try {
        token = await gateway.tokenize(card);
      } catch (err) {
        request.log.info({ cardBrand: card.brand, cardLast4: card.last4 }, 'card not saved');
        throw toPaymentApiError(err);
      }
      const method = await payments.saveMethod(session.id, token, now);
      return reply.status(201).send(toPaymentMethodView(method));
    },
  );

  app.put(
    '/payment-methods/:id/default',
    {
      schema: {
        tags: ['payments'],
        summary: 'Make a saved card the default (offered first at checkout)',
        params: PaymentMethodIdParamsSchema,
        response: { 200: PaymentMethodListSchema, 400: errorRef, 404: errorRef },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request, reply);
      if (!(await payments.setDefault(session.id, request.params.id))) {
        throw notFound('Payment method not found');
      }
      const methods = await payments.listMethods(session.id);
      return { paymentMethods: methods.map(toPaymentMethodView) };
    },
  );

  app.delete(
    '/payment-methods/:id',
    {
      schema: {
        tags: ['payments'],
        summary: 'Delete a saved card',
        params: PaymentMethodIdParamsSchema,
        response: { 204: Type.Null({ description: 'Deleted' }), 400: errorRef, 404: errorRef },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request, reply);
      if (!(await payments.deleteMethod(session.id, request.params.id))) {
        throw notFound('Payment method not found');
      }
      return reply.status(204).send(null);
    },
  );
};
