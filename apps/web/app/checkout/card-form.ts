import type { SaveCardBody as CardInput } from '@showroom/contracts/payments';

/** The card form as typed: the number with spaces, the expiry as MM/YY. */
export interface CardFormValues {
  number: string;
  expiry: string;
  cvc: string;
  saveCard: boolean;
}

export type CardField = 'number' | 'expiry' | 'cvc';

export const EMPTY_CARD_FORM: CardFormValues = { number: '', expiry: '', cvc: '', saveCard: false };

/** Longest card number (ISO/IEC 7812): 19 digits. */
const MAX_CARD_DIGITS = 19;

/**
 * Reads an expiry typed as `MM/YY`, `MM/YYYY`, `M/YY` or `MMYY`; two-digit years are this
 * century's, as the api reads them. Null when it is not an expiry (the api checks the date).
 */
export function parseExpiry(raw: string): { month: number; year: number } | null {
  const trimmed = raw.trim();
  const match =
    /^(\d{1,2})\s*\/\s*(\d{2}|\d{4})$/.exec(trimmed) ?? /^(\d{2})(\d{2})$/.exec(trimmed);
  if (!match) return null;
  const month = Number(match[1]);
  const year = Number(match[2]);
  if (month < 1 || month > 12) return null;
  return { month, year: year < 100 ? 2000 + year : year };
}

/**
 * Formats expiry typing: digits only, a slash after the month (`1225` → `12/25`). A single
 * digit above 1 is a month on its own (`4` → `04/`); a slash is kept only where typed.
 */
export function formatExpiryInput(raw: string): string {
  const digits = raw.replace(/\D/g, '').slice(0, 4);
  if (digits.length === 0) return '';
  const slashTyped = raw.includes('/');
  if (digits.length === 1) {
    return Number(digits) > 1 || (slashTyped && digits !== '0') ? `0${digits}/` : digits;
  }
  if (digits.length === 2) return slashTyped ? `${digits}/` : digits;
  return `${digits.slice(0, 2)}/${digits.slice(2)}`;
}

/** Groups card digits in fours as shoppers read them (`4242 4242 4242 4242`). */
export function formatCardNumberInput(raw: string): string {
  const digits = raw.replace(/\D/g, '').slice(0, MAX_CARD_DIGITS);
  return digits.replace(/(\d{4})(?=\d)/g, '$1 ');
}

/**
 * What the form can tell before asking the api: a missing or malformed value. Whether the
 * number passes the check digit, the card has expired or is declined is the api's answer.
 */
export function validateCardForm(values: CardFormValues): Partial<Record<CardField, string>> {
  const errors: Partial<Record<CardField, string>> = {};
  const digits = values.number.replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(digits)) errors.number = 'Enter the card number (12 to 19 digits)';
  if (!parseExpiry(values.expiry)) errors.expiry = 'Enter the expiry as MM/YY';
  if (!/^\d{3,4}$/.test(values.cvc.trim())) errors.cvc = 'Enter the 3 or 4 digit security code';
  return errors;
}

/** The card as the api takes it; call after {@link validateCardForm} found nothing. */
export function toCardInput(values: CardFormValues): CardInput {
  const expiry = parseExpiry(values.expiry);
  if (!expiry) throw new Error('The card expiry is not MM/YY');
  return {
    number: values.number.replace(/[\s-]/g, ''),
    expMonth: expiry.month,
    expYear: expiry.year,
    cvc: values.cvc.trim(),
  };
}

/** `visa` → `Visa`; the api names brands in lower case. */
export function brandLabel(brand: string): string {
  const labels: Record<string, string> = {
    visa: 'Visa',
    mastercard: 'Mastercard',
    amex: 'American Express',
    discover: 'Discover',
  };
  return labels[brand] ?? 'Card';
}
