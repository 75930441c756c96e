import type { CardBrand } from '@showroom/contracts/card-brand';
import type { PaymentMethod } from '@showroom/contracts/payments';

/** The public view of a stored method: the token stays on the server. */
export function toPaymentMethodView(method: {
  id: string;
  brand: CardBrand;
  last4: string;
  expMonth: number;
  expYear: number;
  createdAt: string;
}): PaymentMethod {
  const { id, brand, last4, expMonth, expYear, createdAt } = method;
  return { id, brand, last4, expMonth, expYear, createdAt };
}
