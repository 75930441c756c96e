import type { SessionView } from '@showroom/contracts/session';
import { discountRateFor } from '../cart/pricing.js';
import type { ShopSession } from './repository.js';

export type CountCart = (ownerId: string) => Promise<{ itemCount: number; lineCount: number }>;

/** What `GET /session` answers, and sign-in, sign-up and sign-out after they switch sessions. */
export function createSessionView(countCart: CountCart) {
  return async (session: ShopSession): Promise<SessionView> => ({
    shopper: session.shopper,
    account: session.account,
    discountRate: discountRateFor(session.shopper),
    cart: await countCart(session.id),
  });
}

export type SessionViewOf = ReturnType<typeof createSessionView>;
