import { requestBrowserFamily } from '../../http/browser-family.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorRef } from '../../http/errors.js';
import type { RequestFaults } from '../faults/request-faults.js';
import type { RequireSession } from '../session/require-session.js';
import { DEFAULT_SHIPPING_COUNTRY } from '@showroom/contracts/shipping';
import {
  AddCartItemBodySchema,
  BuyNowBodySchema,
  CartLineParamsSchema,
  CartQuerySchema,
  CartSchema,
  UpdateCartItemBodySchema,
} from '@showroom/contracts/cart';
import type { CartService } from './service.js';

export interface CartRoutesOptions {
  requireSession: RequireSession;
  cart: CartService;
  /** The slow cart query fault aimed at the shopper (decision 010). */
  faults: RequestFaults;
}

/** The session's cart; every answer is the whole cart, priced by the server. */
export const cartRoutes: FastifyPluginAsyncTypebox<CartRoutesOptions> = async (
  app,
  { requireSession, cart, faults },
) => {
  const errors = { 400: errorRef, 404: errorRef, 409: errorRef };

  app.get(
    '/cart',
    {
      schema: {
        tags: ['cart'],
        summary: "The session's cart, priced for a shipping country",
        querystring: CartQuerySchema,
        response: { 200: CartSchema, 400: errorRef },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request, reply);
      const slowMs = await faults.value(request, 'fault_cart_query_latency_ms', session);
      return cart.view(
        session,
        request.query.country ?? DEFAULT_SHIPPING_COUNTRY,
        requestBrowserFamily(request),
        { span: request.trace?.span, slowMs },
      );
    },
  );

  app.post(
    '/cart/items',
    {
      schema: {
        tags: ['cart'],
        summary: 'Add a product edition; adding one already in the cart raises its quantity',
        description: 'Checks stock: 409 OUT_OF_STOCK naming `quantity` when there is not enough.',
        querystring: CartQuerySchema,
        body: AddCartItemBodySchema,
        response: { 200: CartSchema, ...errors },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request, reply);
      const { productId, edition, quantity = 1 } = request.body;
      await cart.addItem(session, { productId, edition, quantity }, new Date());
      return cart.view(
        session,
        request.query.country ?? DEFAULT_SHIPPING_COUNTRY,
        requestBrowserFamily(request),
      );
    },
  );

  app.patch(
    '/cart/items/:lineId',
    {
      schema: {
        tags: ['cart'],
        summary: "Set a line's quantity (1–99)",
        params: CartLineParamsSchema,
        querystring: CartQuerySchema,
        body: UpdateCartItemBodySchema,
        response: { 200: CartSchema, ...errors },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request, reply);
      await cart.setQuantity(session, request.params.lineId, request.body.quantity);
      return cart.view(
        session,
        request.query.country ?? DEFAULT_SHIPPING_COUNTRY,
        requestBrowserFamily(request),
      );
    },
  );

  app.delete(
    '/cart/items/:lineId',
    {
      schema: {
        tags: ['cart'],
        summary: 'Remove a line',
        params: CartLineParamsSchema,
        querystring: CartQuerySchema,
        response: { 200: CartSchema, 400: errorRef, 404: errorRef },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request, reply);
      await cart.removeItem(session, request.params.lineId);
      return cart.view(
        session,
        request.query.country ?? DEFAULT_SHIPPING_COUNTRY,
        requestBrowserFamily(request),
      );
    },
  );

  app.post(
    '/cart/buy-now',
    {
      schema: {
        tags: ['cart'],
        summary: 'Buy now: replace the cart with this one product edition',
        description: 'The web app then goes straight to checkout with exactly this line.',
        querystring: CartQuerySchema,
        body: BuyNowBodySchema,
        response: { 200: CartSchema, ...errors },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request, reply);
      const { productId, edition, quantity = 1 } = request.body;
      await cart.buyNow(session, { productId, edition, quantity }, new Date());
      return cart.view(
        session,
        request.query.country ?? DEFAULT_SHIPPING_COUNTRY,
        requestBrowserFamily(request),
      );
    },
  );
};
