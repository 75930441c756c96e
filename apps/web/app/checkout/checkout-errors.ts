import { fieldMessage } from '../lib/api-errors';
import type { ShippingAddress } from '@showroom/contracts/orders';

/** Form errors by the api's field path (`shipping.email`, `payment.card.cvc`). */
export type FieldErrors = Partial<Record<string, string>>;

/** The card form shows one expiry field for the api's `expMonth`, `expYear` and `expiry`. */
export function formFieldOf(apiField: string): string {
  return apiField.replace(/(^|\.)(expMonth|expYear)$/, '$1expiry');
}

/** The address fields the shopper must fill before moving on; formats are the api's call. */
export const REQUIRED_ADDRESS_FIELDS = ['name', 'email', 'address1', 'city', 'postalCode'] as const;

export function validateAddress(address: ShippingAddress): FieldErrors {
  const errors: FieldErrors = {};
  for (const field of REQUIRED_ADDRESS_FIELDS) {
    if (address[field].trim() === '') {
      errors[`shipping.${field}`] = fieldMessage(`shipping.${field}`, 'VALIDATION_ERROR');
    }
  }
  return errors;
}

/** The address as sent: trimmed, without an empty second line. */
export function cleanAddress(address: ShippingAddress): ShippingAddress {
  const address2 = address.address2?.trim();
  return {
    name: address.name.trim(),
    email: address.email.trim(),
    address1: address.address1.trim(),
    ...(address2 ? { address2 } : {}),
    city: address.city.trim(),
    postalCode: address.postalCode.trim(),
    country: address.country,
  };
}
