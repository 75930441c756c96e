import type { ErrorCode } from '@showroom/contracts/error-codes';
import { ApiError, type TransportErrorCode } from './api-client';

/**
 * What the shop tells a shopper about a failed call, decided from the error's code and field
 * (never from the message text): the api's sentence where the code says it carries the
 * specifics (which product is short, by how much), our own words everywhere else.
 */
const CODE_MESSAGES: Readonly<Record<ErrorCode | TransportErrorCode, string | null>> = {
  VALIDATION_ERROR: 'Check the highlighted field.',
  BAD_REQUEST: 'The shop could not read that request. Reload the page and try again.',
  PAYLOAD_TOO_LARGE: 'That was too much to send at once.',
  UNSUPPORTED_MEDIA_TYPE: 'The shop could not read that request. Reload the page and try again.',
  NOT_FOUND: 'We could not find that. It may have been removed.',
  SHOPPER_NOT_FOUND: 'The shop does not know this sample shopper.',
  // The api names the product and what is left: its sentence is the useful one.
  OUT_OF_STOCK: null,
  QUANTITY_LIMIT: null,
  CART_EMPTY: 'Your cart is empty: add a product before checking out.',
  CARD_DECLINED: 'Your card was declined. Try another card.',
  CARD_EXPIRED: 'This card has expired.',
  CARD_NUMBER_INVALID: 'This card number is not valid: check the digits.',
  GATEWAY_ERROR:
    'The payment service is not answering. You have not been charged; please try again.',
  IDEMPOTENCY_KEY_REUSED: 'This order attempt changed while it was being placed. Try again.',
  IDEMPOTENCY_KEY_IN_USE: 'Your order is still being placed. Wait a moment and reload.',
  ALLOCATION_HAS_NO_SPLIT: null,
  EMAIL_TAKEN: 'An account already uses this e-mail address. Sign in instead.',
  INVALID_CREDENTIALS: 'The e-mail address or the password is not right.',
  // The api counts the tries left: its sentence is the useful one.
  CODE_INVALID: null,
  CODE_EXPIRED: 'This code has expired. Ask for a new code.',
  CODE_LOCKED: 'Too many wrong codes. Ask for a new code.',
  NO_PENDING_VERIFICATION: 'Nothing is waiting for a code. Start again.',
  ALREADY_MEMBER: 'You are already a member of the loyalty programme.',
  ALREADY_SIGNED_IN: 'You are signed in. Sign out to create another account.',
  // The api says how long to wait.
  RATE_LIMITED: null,
  // A part of the shop the api cannot serve now (decision 010): its sentence names it.
  SERVICE_UNAVAILABLE: null,
  DATABASE_UNAVAILABLE:
    'The shop is having a short outage. Nothing was changed; please try again in a moment.',
  // Not a shopper's situation (another site's form, an operator route): the api's sentence.
  CROSS_SITE_REQUEST: null,
  OPERATOR_TOKEN_MISSING: null,
  OPERATOR_TOKEN_INVALID: null,
  // An operator's control (the autopilot on /demo): the api says which state it is in.
  AUTOPILOT_STATE: null,
  API_UNREACHABLE: 'The shop is not answering right now. Please try again in a moment.',
  INTERNAL: 'Something went wrong on our side. Please try again.',
  NETWORK_ERROR: 'The shop could not be reached. Check your connection and try again.',
  TIMEOUT: 'The shop is taking too long to answer. Please try again.',
  BAD_RESPONSE: 'The shop answered something unexpected. Please try again.',
};

/** Form messages per request field, for VALIDATION_ERROR answers that name one. */
const FIELD_MESSAGES: Readonly<Record<string, string>> = {
  'shipping.name': 'Enter the name to deliver to',
  'shipping.email': 'Enter a valid e-mail address',
  'shipping.address1': 'Enter the street address',
  'shipping.address2': 'Shorten the second address line',
  'shipping.city': 'Enter the city',
  'shipping.postalCode': 'Enter a valid postal code',
  'shipping.country': 'Choose a country we ship to',
  'payment.card.number': 'Enter the card number (12 to 19 digits)',
  'payment.card.expiry': 'Enter the expiry as MM/YY',
  'payment.card.cvc': 'Enter the 3 or 4 digit security code',
  'payment.paymentMethodId': 'Choose a saved card',
  quantity: 'Choose a quantity from 1 to 99',
};

/** The message for one form field; `field` is the api's path (`shipping.email`). */
export function fieldMessage(field: string, code: ErrorCode | TransportErrorCode): string {
  if (code === 'VALIDATION_ERROR') return FIELD_MESSAGES[field] ?? CODE_MESSAGES.VALIDATION_ERROR!;
  return CODE_MESSAGES[code] ?? 'Check this field.';
}

/** The message for any failure a page shows. */
export function messageOf(error: unknown): string {
  if (!(error instanceof ApiError)) return 'Something went wrong; please try again.';
  if (error.code === 'VALIDATION_ERROR' && error.field && FIELD_MESSAGES[error.field]) {
    return FIELD_MESSAGES[error.field]!;
  }
  return CODE_MESSAGES[error.code] ?? error.message;
}
