import { ApiError } from '../../http/errors.js';
import { randomId } from '../session/random-id.js';
import type { CardBrand } from '@showroom/contracts/card-brand';
import type { ValidatedCard } from './card-validation.js';

/**
 * Test card numbers the simulated gateway answers specially, after the payment industry's
 * usual test numbers. Any other Luhn-valid number is charged successfully.
 */
export const TEST_CARDS = {
  succeeds: '4242424242424242',
  declines: '4000000000000002',
  gatewayError: '4000000000000119',
} as const;

/** What to charge: a card typed in now, or a saved payment method's gateway token. */
export type PaymentSource =
  | { kind: 'card'; card: ValidatedCard }
  | { kind: 'token'; token: string; brand: string; last4: string };

export interface ChargeRequest {
  source: PaymentSource;
  amountCents: number;
  currency: string;
  /** The order the charge pays for. */
  reference: string;
  /** Also answer a reusable token for the card (the shopper ticked "save card"). */
  saveForLater?: boolean;
  /**
   * The simulated gateway declines this charge with this reason, whatever the card (the
   * payment decline fault flag, docs/decisions/010-fault-flags.md); a real gateway has no such
   * field.
   */
  simulateDecline?: string;
}

export interface Charge {
  chargeId: string;
  brand: string;
  last4: string;
  /** Present when `saveForLater` was asked: an opaque token for later charges. */
  token?: string;
}

export interface CardToken {
  token: string;
  brand: CardBrand;
  last4: string;
  expMonth: number;
  expYear: number;
}

/** The issuer said no. Nothing was charged. */
export class CardDeclinedError extends Error {
  override readonly name = 'CardDeclinedError';
}

/** The gateway failed (timeout, outage). Nothing was charged. */
export class PaymentGatewayError extends Error {
  override readonly name = 'PaymentGatewayError';
}

/** The shop's view of a payment gateway; the simulated one below stands in for a real one. */
export interface PaymentGateway {
  charge(request: ChargeRequest): Promise<Charge>;
  /** Verifies a card (a zero-amount authorisation) and answers a token for it. */
  tokenize(card: ValidatedCard): Promise<CardToken>;
  /** Cancels a charge whose order could not be stored. */
  voidCharge(chargeId: string): Promise<void>;
}

/**
 * A stateless in-process gateway: nothing kept in memory, so api replicas agree. A saved
 * token was verified when it was issued, so charging it succeeds.
 */
export function createSimulatedGateway(): PaymentGateway {
  const authorise = (card: ValidatedCard): void => {
    if (card.number === TEST_CARDS.declines) throw new CardDeclinedError('Card declined by issuer');
    if (card.number === TEST_CARDS.gatewayError) {
      throw new PaymentGatewayError('Payment gateway did not answer');
    }
  };
  return {
    async charge({ source, saveForLater, simulateDecline }) {
      await Promise.resolve();
      if (simulateDecline) throw new CardDeclinedError(simulateDecline);
      if (source.kind === 'token') {
        return { chargeId: randomId('ch'), brand: source.brand, last4: source.last4 };
      }
      authorise(source.card);
      const charge: Charge = {
        chargeId: randomId('ch'),
        brand: source.card.brand,
        last4: source.card.last4,
      };
      if (saveForLater) charge.token = randomId('tok');
      return charge;
    },
    async tokenize(card) {
      await Promise.resolve();
      authorise(card);
      const { brand, last4, expMonth, expYear } = card;
      return { token: randomId('tok'), brand, last4, expMonth, expYear };
    },
    async voidCharge() {
      await Promise.resolve();
    },
  };
}

/** Maps a gateway failure to the api's answer; anything else is rethrown as it is. */
export function toPaymentApiError(error: unknown): unknown {
  if (error instanceof CardDeclinedError) {
    return new ApiError(402, 'CARD_DECLINED', 'Your card was declined. Try another card.');
  }
  if (error instanceof PaymentGatewayError) {
    return new ApiError(
      502,
      'GATEWAY_ERROR',
      'The payment service is not answering. You have not been charged; please try again.',
    );
  }
  return error;
}
