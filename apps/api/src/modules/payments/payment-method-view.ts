import type { CardBrand } from '@showroom/contracts/card-brand';
import type { PaymentMethod } from '@showroom/contracts/payments';

/** The public view of a stored method: the token stays on the server. */
export function toPaymentMethodView(method: {
  id: string;
  brand: CardBrand;
  last4: string;
  expMonth: number;
  expYear: number;
  isDefault: boolean;
  createdAt: string;
}): PaymentMethod {
  const { id, brand, last4, expMonth, expYear, isDefault, createdAt } = method;
  return { id, brand, last4, expMonth, expYear, isDefault, createdAt };
}
