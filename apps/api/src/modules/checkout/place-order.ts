import type { BrowserFamily } from '@showroom/contracts/browser-family';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';
import { prepareSharedStatement } from '../../db/prepared.js';
import { ApiError, badRequest, conflict } from '../../http/errors.js';
import type { RequestSpan } from '../../http/request-tracing.js';
import { CURRENCY, priceCart } from '../cart/pricing.js';
import { createFreeShippingThreshold, type FreeShippingThreshold } from '../cart/free-shipping.js';
import { createCartRepository, type CartLineRecord } from '../cart/repository.js';
import { outOfStock, pricingOptionsFor } from '../cart/service.js';
import { createOrdersRepository } from '../orders/repository.js';
import type { Order } from '@showroom/contracts/orders';
import { validateCard, type ValidatedCard } from '../payments/card-validation.js';
import {
  CardDeclinedError,
  toPaymentApiError,
  type Charge,
  type PaymentGateway,
  type PaymentSource,
} from '../payments/gateway.js';
import { createPaymentsRepository } from '../payments/repository.js';
import { earnOrderPoints } from '../loyalty/service.js';
import type { ShopSession } from '../session/repository.js';
import { recordId } from '../session/random-id.js';
import { createIdempotencyRepository, requestFingerprint } from './idempotency.js';
import type { PlaceOrderBody } from '@showroom/contracts/checkout';

/**
 * The failure the buy-now demo mode asks for (`x-demo-error: buy-now`, the web app's
 * `shouldError`): a plain Error, as a real bug would throw, so it reaches the error handler.
 */
export class BuyNowDemoError extends Error {
  override readonly name = 'BuyNowDemoError';
  constructor() {
    super('Buy now failed: the order could not be placed (demo error mode)');
  }
}

/** Why the simulated gateway declines an order the decline fault drew (decision 010). */
export const FAULT_DECLINE_REASON = 'Card declined by issuer: do not honour (simulated)';

export interface PlaceOrderInput {
  session: ShopSession;
  /**
   * The `fault_payment_decline_percent` fault for this shopper (0–100, decision 010): each order
   * is declined by the gateway with this chance, drawn per order.
   */
  declinePercent?: number;
  /** The request's server span: a declined order the fault drew is recorded on it as an error. */
  span?: RequestSpan | undefined;
  /** The shopper's browser family, for the flag subject of the free-shipping threshold. */
  browser: BrowserFamily;
  body: PlaceOrderBody;
  idempotencyKey?: string | undefined;
  demoError?: 'buy-now' | undefined;
  now: Date;
  log: FastifyBaseLogger;
}

export interface PlaceOrderResult {
  /** Only a placed order is stored for replay, so every answer here is a 201. */
  statusCode: 201;
  order: Order;
  /** The answer stored for an earlier request with the same Idempotency-Key. */
  replayed: boolean;
}

type PaymentPlan =
  { type: 'card'; card: ValidatedCard; save: boolean } | { type: 'saved'; paymentMethodId: string };

export type Checkout = ReturnType<typeof createCheckout>;

export interface CheckoutOptions {
  db: Kysely<Database>;
  gateway: PaymentGateway;
  /** Keys the idempotency fingerprints. */
  fingerprintSecret: string;
  /** The cart's free-shipping threshold per shopper; default: the shop's constant. */
  freeShippingThreshold?: FreeShippingThreshold;
}

/**
 * Placing an order is one transaction: re-price the cart from current prices, take the stock
 * with conditional updates, charge, store the order, its lines and the payment, empty the
 * cart. Any failure rolls all of it back, so a failed attempt changes nothing.
 */
export function createCheckout({
  db,
  gateway,
  fingerprintSecret,
  freeShippingThreshold = createFreeShippingThreshold(),
}: CheckoutOptions) {
  return {
    async placeOrder(input: PlaceOrderInput): Promise<PlaceOrderResult> {
      const { session, browser, body, idempotencyKey, now, log } = input;
      const plan = planPayment(body.payment, now);
      const declinePercent = input.declinePercent ?? 0;
      const faultDeclines = declinePercent > 0 && Math.random() * 100 < declinePercent;
      const fingerprint = idempotencyKey ? requestFingerprint(fingerprintSecret, body) : '';
      // Read before the transaction: on SQLite its one connection is taken until commit.
      const thresholdCents = await freeShippingThreshold(session.shopper, browser);

      let charge: Charge | undefined;
      try {
        return await db.transaction().execute(async (trx) => {
          const idempotency = createIdempotencyRepository(trx);
          if (idempotencyKey) {
            const claimed = await idempotency.claim(session.id, idempotencyKey, fingerprint, now);
            if (!claimed) {
              return replay(await idempotency.find(session.id, idempotencyKey), fingerprint);
            }
          }

          const cart = createCartRepository(trx);
          const lines = await cart.lockLines(session.id);
          if (lines.length === 0) {
            throw conflict('CART_EMPTY', 'Your cart is empty: add a product before checking out');
          }
          const payments = createPaymentsRepository(trx);
          const source = await paymentSource(plan, session.id, payments);
          const priced = priceCart(
            lines,
            pricingOptionsFor(session.shopper, body.shipping.country, thresholdCents),
          );

          await takeStock(trx, lines);
          if (input.demoError === 'buy-now') throw new BuyNowDemoError();

          const orderId = recordId('ord', now);
          try {
            charge = await gateway.charge({
              source,
              amountCents: priced.totalCents,
              currency: CURRENCY,
              reference: orderId,
              saveForLater: plan.type === 'card' && plan.save,
              ...(faultDeclines ? { simulateDecline: FAULT_DECLINE_REASON } : {}),
            });
          } catch (err) {
            const card = plan.type === 'card' ? plan.card : undefined;
            log.info(
              { cardBrand: card?.brand, cardLast4: card?.last4, err: errorName(err) },
              'charge failed',
            );
            if (faultDeclines && err instanceof CardDeclinedError) {
              const fault = {
                'fault.flag': 'fault_payment_decline_percent',
                'fault.value': declinePercent,
              };
              log.warn(
                { ...fault, declineReason: err.message, cardBrand: card?.brand },
                'payment declined: fault flag',
              );
              input.span?.recordError(err, { ...fault, 'payment.decline_reason': err.message });
            }
            throw toPaymentApiError(err);
          }

          const order: Order = {
            id: orderId,
            status: 'paid',
            createdAt: now.toISOString(),
            currency: CURRENCY,
            lines: priced.lines.map((line) => ({
              productId: line.productId,
              edition: line.edition,
              name: line.name,
              unitPriceCents: line.unitPriceCents,
              quantity: line.quantity,
              lineTotalCents: line.lineTotalCents,
            })),
            itemCount: priced.itemCount,
            subtotalCents: priced.subtotalCents,
            discountCents: priced.discountCents,
            shippingCents: priced.shippingCents,
            totalCents: priced.totalCents,
            shipping: body.shipping,
            payment: { brand: charge.brand, last4: charge.last4 },
            instantPayVariant: body.instantPayVariant ?? null,
            checkoutFlow: body.checkoutFlow ?? null,
          };
          await createOrdersRepository(trx).insert({
            order,
            sessionId: session.id,
            shopperId: session.shopper?.id ?? null,
          });
          await payments.recordPayment(
            {
              orderId,
              sessionId: session.id,
              amountCents: priced.totalCents,
              currency: CURRENCY,
              method: plan.type,
              cardBrand: charge.brand,
              cardLast4: charge.last4,
              gatewayChargeId: charge.chargeId,
            },
            now,
          );
          await earnOrderPoints(trx, session.id, orderId, order.totalCents, now);
          if (plan.type === 'card' && charge.token) {
            const { brand, last4, expMonth, expYear } = plan.card;
            await payments.saveMethod(
              session.id,
              { token: charge.token, brand, last4, expMonth, expYear },
              now,
            );
          }
          await cart.removeLines(
            session.id,
            lines.map((line) => line.id),
          );
          if (idempotencyKey) await idempotency.complete(session.id, idempotencyKey, 201, order);

          log.info(
            {
              orderId,
              totalCents: order.totalCents,
              itemCount: order.itemCount,
              cardBrand: charge.brand,
              cardLast4: charge.last4,
            },
            'order placed',
          );
          return { statusCode: 201, order, replayed: false };
        });
      } catch (err) {
        // The charge went through but the order was not stored: give the money back.
        if (charge) {
          await gateway.voidCharge(charge.chargeId).catch((voidErr: unknown) => {
            log.error({ err: voidErr, chargeId: charge?.chargeId }, 'could not void charge');
          });
        }
        throw err;
      }
    },
  };
}

/** Validates the payment part of the request before anything is touched. */
function planPayment(payment: PlaceOrderBody['payment'], now: Date): PaymentPlan {
  if (payment.type === 'card') {
    if (!payment.card) throw badRequest('payment.card', 'Card details are required to pay by card');
    const card = validateCard(payment.card, { now, fieldPrefix: 'payment.card.' });
    return { type: 'card', card, save: payment.card.saveCard === true };
  }
  if (!payment.paymentMethodId) {
    throw badRequest('payment.paymentMethodId', 'Choose a saved payment method');
  }
  return { type: 'saved', paymentMethodId: payment.paymentMethodId };
}

async function paymentSource(
  plan: PaymentPlan,
  sessionId: string,
  payments: ReturnType<typeof createPaymentsRepository>,
): Promise<PaymentSource> {
  if (plan.type === 'card') return { kind: 'card', card: plan.card };
  const method = await payments.findMethod(sessionId, plan.paymentMethodId);
  if (!method) {
    throw new ApiError(
      404,
      'NOT_FOUND',
      'Saved payment method not found',
      'payment.paymentMethodId',
    );
  }
  return { kind: 'token', token: method.token, brand: method.brand, last4: method.last4 };
}

// Each order takes stock once per line: compiled once (db/prepared.ts).
const takeProductStock = prepareSharedStatement(
  (db: Kysely<Database>, productId: number, quantity: number) =>
    db
      .updateTable('products')
      .set((eb) => ({ stock: eb('stock', '-', quantity) }))
      .where('id', '=', productId)
      .where('stock', '>=', quantity),
);

const takeSpecialEditionStock = prepareSharedStatement(
  (db: Kysely<Database>, productId: number, quantity: number) =>
    db
      .updateTable('special_editions')
      .set((eb) => ({ stock: eb('stock', '-', quantity) }))
      .where('product_id', '=', productId)
      .where('stock', '>=', quantity),
);

/**
 * Takes the stock for every line with a conditional update (`stock = stock - q where
 * stock >= q`): on PostgreSQL a concurrent order waits for the row lock and re-checks the
 * condition against the committed stock, so stock can never go below zero; on SQLite the one
 * connection runs transactions one at a time. Lines go in product order so that two orders
 * with the same products lock their rows in the same order and cannot deadlock.
 */
async function takeStock(trx: Transaction<Database>, lines: CartLineRecord[]): Promise<void> {
  const ordered = [...lines].sort(
    (a, b) => a.productId - b.productId || a.edition.localeCompare(b.edition),
  );
  for (const line of ordered) {
    const take = line.edition === 'special' ? takeSpecialEditionStock : takeProductStock;
    const result = await take(trx, line.productId, line.quantity);
    if (Number(result.numAffectedRows ?? 0n) !== 1) {
      const stock = await currentStock(trx, line);
      throw outOfStock({ name: line.name, stock }, { field: `lines.${line.id}` });
    }
  }
}

async function currentStock(trx: Transaction<Database>, line: CartLineRecord): Promise<number> {
  const row =
    line.edition === 'special'
      ? await trx
          .selectFrom('special_editions')
          .select('stock')
          .where('product_id', '=', line.productId)
          .executeTakeFirst()
      : await trx
          .selectFrom('products')
          .select('stock')
          .where('id', '=', line.productId)
          .executeTakeFirst();
  return row?.stock ?? 0;
}

function replay(
  stored: Awaited<ReturnType<ReturnType<typeof createIdempotencyRepository>['find']>>,
  fingerprint: string,
): PlaceOrderResult {
  if (!stored) throw new Error('Idempotency key was claimed but its record is missing');
  if (stored.fingerprint !== fingerprint) {
    throw new ApiError(
      422,
      'IDEMPOTENCY_KEY_REUSED',
      'This Idempotency-Key was already used for a different order request',
      'idempotency-key',
    );
  }
  if (stored.statusCode !== 201 || stored.body === null) {
    throw conflict(
      'IDEMPOTENCY_KEY_IN_USE',
      'An order request with this Idempotency-Key is still being processed',
      'idempotency-key',
    );
  }
  return { statusCode: 201, order: JSON.parse(stored.body) as Order, replayed: true };
}

function errorName(err: unknown): string {
  return err instanceof Error ? err.name : 'unknown';
}
