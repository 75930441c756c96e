import type { ShippingAddress } from '../lib/shop-types';

/** Form errors by the api's field path (`shipping.email`, `payment.card.cvc`). */
export type FieldErrors = Partial<Record<string, string>>;

/** Messages for fields whose api error is a schema message rather than a sentence. */
const FIELD_MESSAGES: Readonly<Record<string, string>> = {
  'shipping.name': 'Enter the name to deliver to',
  'shipping.email': 'Enter a valid e-mail address',
  'shipping.address1': 'Enter the street address',
  'shipping.address2': 'Shorten the second address line',
  'shipping.city': 'Enter the city',
  'shipping.postalCode': 'Enter a valid postal code',
  'shipping.country': 'Choose a country we ship to',
  'payment.card.number': 'Enter the card number',
  'payment.card.expiry': 'Enter the expiry as MM/YY',
  'payment.card.cvc': 'Enter the 3 or 4 digit security code',
  'payment.paymentMethodId': 'Choose a saved card',
};

/** The card form shows one expiry field for the api's `expMonth`, `expYear` and `expiry`. */
export function formFieldOf(apiField: string): string {
  return apiField.replace(/(^|\.)(expMonth|expYear)$/, '$1expiry');
}

/**
 * The message to show beside a field. Schema validation answers name the request part
 * (`body.shipping.postalCode must match pattern …`): those become a sentence for shoppers;
 * the api's own sentences ("Card has expired") are shown as they are.
 */
export function fieldMessage(field: string, apiMessage: string): string {
  const fromSchema = /^(body|querystring|params|headers)[.\s]/.test(apiMessage);
  return fromSchema ? (FIELD_MESSAGES[field] ?? apiMessage) : apiMessage;
}

/** The address fields the shopper must fill before moving on; formats are the api's call. */
export const REQUIRED_ADDRESS_FIELDS = ['name', 'email', 'address1', 'city', 'postalCode'] as const;

export function validateAddress(address: ShippingAddress): FieldErrors {
  const errors: FieldErrors = {};
  for (const field of REQUIRED_ADDRESS_FIELDS) {
    if (address[field].trim() === '') {
      errors[`shipping.${field}`] = FIELD_MESSAGES[`shipping.${field}`];
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
