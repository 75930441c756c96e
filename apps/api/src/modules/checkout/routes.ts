import { requestBrowserFamily } from '../../http/browser-family.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorRef } from '../../http/errors.js';
import { OrderSchema } from '@showroom/contracts/orders';
import type { RequestFaults } from '../faults/request-faults.js';
import type { RequireSession } from '../session/require-session.js';
import type { Checkout } from './place-order.js';
import { PlaceOrderBodySchema, PlaceOrderHeadersSchema } from '@showroom/contracts/checkout';
import { PLACE_ORDER_PATH } from '@showroom/contracts/checkout-constants';

export interface CheckoutRoutesOptions {
  requireSession: RequireSession;
  checkout: Checkout;
  /** The payment decline fault aimed at the shopper (decision 010). */
  faults: RequestFaults;
}

export const checkoutRoutes: FastifyPluginAsyncTypebox<CheckoutRoutesOptions> = async (
  app,
  { requireSession, checkout, faults },
) => {
  app.post(
    PLACE_ORDER_PATH,
    {
      schema: {
        tags: ['checkout'],
        summary: "Place an order for the session's cart",
        description:
          'One transaction: re-prices the cart from current prices, takes the stock, charges the ' +
          'card and empties the cart. Errors change nothing: 400 invalid field, 402 CARD_DECLINED, ' +
          '404 unknown saved card, 409 OUT_OF_STOCK or CART_EMPTY, 422 Idempotency-Key reused ' +
          'with another body, 502 GATEWAY_ERROR. Test cards: 4242 4242 4242 4242 succeeds, ' +
          '4000 0000 0000 0002 is declined, 4000 0000 0000 0119 fails at the gateway. While the ' +
          'fault_payment_decline_percent fault flag is aimed at the shopper (rules may also name ' +
          "the checkoutFlow attribute, the body's checkoutFlow), that share of orders is " +
          'declined (402 CARD_DECLINED).',
        headers: PlaceOrderHeadersSchema,
        body: PlaceOrderBodySchema,
        response: {
          201: OrderSchema,
          400: errorRef,
          402: errorRef,
          404: errorRef,
          409: errorRef,
          422: errorRef,
          500: errorRef,
          502: errorRef,
        },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request, reply);
      // The flow is part of the fault's subject: a fault can be aimed at one checkout flow.
      const { checkoutFlow } = request.body;
      const declinePercent = await faults.value(
        request,
        'fault_payment_decline_percent',
        session,
        checkoutFlow === undefined ? undefined : { checkoutFlow },
      );
      const result = await checkout.placeOrder({
        session,
        declinePercent,
        span: request.trace?.span,
        browser: requestBrowserFamily(request),
        body: request.body,
        idempotencyKey: request.headers['idempotency-key'],
        demoError: request.headers['x-demo-error'],
        now: new Date(),
        log: request.log,
      });
      if (result.replayed) reply.header('idempotent-replayed', 'true');
      return reply
        .status(result.statusCode)
        .header('location', `/orders/${result.order.id}`)
        .send(result.order);
    },
  );
};
