import type { BrowserFamily } from '@showroom/contracts/browser-family';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { ApiError, conflict } from '../../http/errors.js';
import type { BoundShopper, ShopSession } from '../session/repository.js';
import {
  CURRENCY,
  discountRateFor,
  FREE_SHIPPING_THRESHOLD_CENTS,
  priceCart,
  type PricingOptions,
} from './pricing.js';
import type { ShippingCountry } from '@showroom/contracts/shipping';
import { MAX_LINE_QUANTITY } from '@showroom/contracts/cart-limits';
import {
  createCartRepository,
  type CartLineRecord,
  type Edition,
  type EditionRecord,
  type TracedCartQuery,
} from './repository.js';
import { createFreeShippingThreshold, type FreeShippingThreshold } from './free-shipping.js';
import type { Cart } from '@showroom/contracts/cart';

/**
 * The pricing inputs for a session: the discount from its bound shopper, the threshold the
 * flag service chose for that shopper (see free-shipping.ts; the shop's constant by default).
 */
export function pricingOptionsFor(
  shopper: BoundShopper | null,
  country: ShippingCountry,
  freeShippingThresholdCents: number = FREE_SHIPPING_THRESHOLD_CENTS,
): PricingOptions {
  return {
    country,
    discountRate: discountRateFor(shopper),
    freeShippingThresholdCents,
  };
}

/** Prices the session's lines into the cart the api answers. */
export function toCartView(
  lines: CartLineRecord[],
  shopper: BoundShopper | null,
  country: ShippingCountry,
  freeShippingThresholdCents: number = FREE_SHIPPING_THRESHOLD_CENTS,
): Cart {
  const options = pricingOptionsFor(shopper, country, freeShippingThresholdCents);
  const priced = priceCart(lines, options);
  return {
    lines: priced.lines.map((line) => ({
      id: line.id,
      productId: line.productId,
      edition: line.edition,
      name: line.name,
      department: line.department,
      unitPriceCents: line.unitPriceCents,
      quantity: line.quantity,
      lineTotalCents: line.lineTotalCents,
      stock: line.stock,
      inStock: line.quantity <= line.stock,
    })),
    itemCount: priced.itemCount,
    currency: CURRENCY,
    country,
    subtotalCents: priced.subtotalCents,
    discountRate: options.discountRate,
    discountCents: priced.discountCents,
    shippingCents: priced.shippingCents,
    freeShipping: priced.freeShipping,
    freeShippingThresholdCents: options.freeShippingThresholdCents,
    totalCents: priced.totalCents,
  };
}

/** A 409 that names the product and how many are left. */
export function outOfStock(
  item: { name: string; stock: number },
  options: { inCart?: number; field?: string } = {},
): ApiError {
  const already = options.inCart ? `; your cart already has ${options.inCart}` : '';
  const message =
    item.stock === 0
      ? `"${item.name}" is out of stock`
      : `Only ${item.stock} of "${item.name}" left in stock${already}`;
  return conflict('OUT_OF_STOCK', message, options.field);
}

interface LineInput {
  productId: number;
  edition: Edition;
  quantity: number;
}

export type CartService = ReturnType<typeof createCartService>;

export interface CartServiceOptions {
  /** Chooses the free-shipping threshold per shopper; default: the shop's constant. */
  freeShippingThreshold?: FreeShippingThreshold;
}

/** Cart rules over the repository: stock checked on every change, lines owned by the session. */
export function createCartService(db: Kysely<Database>, options: CartServiceOptions = {}) {
  const repository = createCartRepository(db);
  const freeShippingThreshold = options.freeShippingThreshold ?? createFreeShippingThreshold();

  const findEditionOrThrow = async (
    productId: number,
    edition: Edition,
  ): Promise<EditionRecord> => {
    const found = await repository.findEdition(productId, edition);
    if (!found) throw new ApiError(404, 'NOT_FOUND', `Product ${productId} not found`, 'productId');
    return found;
  };

  return {
    counts: (sessionId: string) => repository.counts(sessionId),

    /** The priced cart; `traced` times its query in the request's trace (GET /cart). */
    async view(
      session: ShopSession,
      country: ShippingCountry,
      browser: BrowserFamily,
      traced?: TracedCartQuery,
    ): Promise<Cart> {
      const [lines, thresholdCents] = await Promise.all([
        repository.listLines(session.id, traced),
        freeShippingThreshold(session.shopper, browser),
      ]);
      return toCartView(lines, session.shopper, country, thresholdCents);
    },

    async addItem(session: ShopSession, input: LineInput, now: Date): Promise<void> {
      const edition = await findEditionOrThrow(input.productId, input.edition);
      const inCart =
        (await repository.findLineFor(session.id, input.productId, input.edition))?.quantity ?? 0;
      if (inCart + input.quantity > MAX_LINE_QUANTITY) {
        throw conflict(
          'QUANTITY_LIMIT',
          `A cart line holds at most ${MAX_LINE_QUANTITY}; your cart already has ${inCart} of "${edition.name}"`,
          'quantity',
        );
      }
      if (inCart + input.quantity > edition.stock) {
        throw outOfStock(edition, { inCart, field: 'quantity' });
      }
      // The stock just read caps the line in the upsert itself: adds racing each other are
      // accepted only up to it, as when they come one after the other.
      const lineId = await repository.addToLine(session.id, input, now, edition.stock);
      if (!lineId) {
        const current =
          (await repository.findLineFor(session.id, input.productId, input.edition))?.quantity ?? 0;
        if (current + input.quantity > edition.stock) {
          throw outOfStock(edition, { inCart: current, field: 'quantity' });
        }
        throw conflict(
          'QUANTITY_LIMIT',
          `A cart line holds at most ${MAX_LINE_QUANTITY}`,
          'quantity',
        );
      }
    },

    async setQuantity(session: ShopSession, lineId: string, quantity: number): Promise<void> {
      const line = await repository.findLine(session.id, lineId);
      if (!line) throw new ApiError(404, 'NOT_FOUND', 'Cart line not found', 'lineId');
      if (quantity > line.stock) throw outOfStock(line, { field: 'quantity' });
      // Gone since it was read: a checkout that was taking this cart ordered it.
      if (!(await repository.setQuantity(session.id, lineId, quantity))) {
        throw new ApiError(404, 'NOT_FOUND', 'Cart line not found', 'lineId');
      }
    },

    async removeItem(session: ShopSession, lineId: string): Promise<void> {
      if (!(await repository.removeLine(session.id, lineId))) {
        throw new ApiError(404, 'NOT_FOUND', 'Cart line not found', 'lineId');
      }
    },

    /** Buy now: the cart becomes this one line, so checkout pays for exactly this product. */
    async buyNow(session: ShopSession, input: LineInput, now: Date): Promise<void> {
      const edition = await findEditionOrThrow(input.productId, input.edition);
      if (input.quantity > edition.stock) throw outOfStock(edition, { field: 'quantity' });
      await db.transaction().execute(async (trx) => {
        const cart = createCartRepository(trx);
        // Buy nows racing each other (a double click, two products) replace the cart in turn:
        // without the lock each clear misses the others' uncommitted lines and all of them stay.
        await cart.lockSession(session.id);
        await cart.clear(session.id);
        // Capped at its own quantity: never added to a line of the same product left there.
        await cart.addToLine(session.id, input, now, input.quantity);
      });
    },
  };
}
