import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorRef, notFound } from '../../http/errors.js';
import type { RequireSession } from '../session/require-session.js';
import type { OrdersRepository } from './repository.js';
import { OrderIdParamsSchema, OrderListSchema, OrderSchema } from '@showroom/contracts/orders';

export interface OrdersRoutesOptions {
  requireSession: RequireSession;
  orders: OrdersRepository;
}

export const ordersRoutes: FastifyPluginAsyncTypebox<OrdersRoutesOptions> = async (
  app,
  { requireSession, orders },
) => {
  app.get(
    '/orders',
    {
      schema: {
        tags: ['orders'],
        summary: "This session's orders, newest first",
        response: { 200: OrderListSchema },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request, reply);
      return { orders: await orders.listForSession(session.id) };
    },
  );

  app.get(
    '/orders/:id',
    {
      schema: {
        tags: ['orders'],
        summary: "One of this session's orders",
        description: "Another session's order answers 404, the same as one that does not exist.",
        params: OrderIdParamsSchema,
        response: { 200: OrderSchema, 400: errorRef, 404: errorRef },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request, reply);
      const order = await orders.findForSession(session.id, request.params.id);
      if (!order) throw notFound(`Order ${request.params.id} not found`);
      return order;
    },
  );
};
