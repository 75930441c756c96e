import { detectCardBrand, type CardBrand } from '@showroom/contracts/card-brand';
import type { ErrorCode } from '@showroom/contracts/errors';
import { ApiError } from '../../http/errors.js';

/** Card details as a client sends them: expiry as month + year, or as one `MM/YY` string. */
export interface CardInput {
  number: string;
  expMonth?: number | undefined;
  expYear?: number | undefined;
  expiry?: string | undefined;
  cvc: string;
}

/**
 * A card that passed validation. `number` and `cvc` exist only in memory for the length of
 * one request: they go to the payment gateway and nowhere else (never a table, never a log).
 */
export interface ValidatedCard {
  number: string;
  cvc: string;
  brand: CardBrand;
  last4: string;
  expMonth: number;
  expYear: number;
}

/** How far ahead an expiry date may be; later dates are typos. */
export const MAX_CARD_YEARS_AHEAD = 20;

/** The Luhn (mod 10) check digit test, ISO/IEC 7812-1 Annex B. */
export function isLuhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** Digits only: shoppers type spaces and dashes between groups. */
export function normaliseCardNumber(raw: string): string {
  return raw.replace(/[\s-]/g, '');
}

/**
 * Validates card details and answers the card a gateway can charge, or throws a 400 naming
 * the field: `${prefix}number`, `expMonth`, `expYear`, `expiry` or `cvc`. A card is valid
 * through the last day of its expiry month (UTC). Error messages never echo the input.
 */
export function validateCard(
  input: CardInput,
  options: { now: Date; fieldPrefix?: string },
): ValidatedCard {
  const prefix = options.fieldPrefix ?? '';
  const fail = (field: string, message: string, code: ErrorCode = 'VALIDATION_ERROR') =>
    new ApiError(400, code, message, `${prefix}${field}`);

  const number = normaliseCardNumber(input.number);
  if (!/^\d{12,19}$/.test(number)) throw fail('number', 'Card number must be 12 to 19 digits');
  if (!isLuhnValid(number))
    throw fail('number', 'Card number is not valid: check the digits', 'CARD_NUMBER_INVALID');

  const { month, year, field } = readExpiry(input, fail);
  if (month < 1 || month > 12) throw fail(field ?? 'expMonth', 'Expiry month must be from 1 to 12');
  const nowYear = options.now.getUTCFullYear();
  const nowMonth = options.now.getUTCMonth() + 1;
  if (year * 12 + month < nowYear * 12 + nowMonth) {
    const expiredField = field ?? (year < nowYear ? 'expYear' : 'expMonth');
    throw fail(expiredField, 'Card has expired', 'CARD_EXPIRED');
  }
  if (year > nowYear + MAX_CARD_YEARS_AHEAD) {
    throw fail(field ?? 'expYear', `Expiry year must be within ${MAX_CARD_YEARS_AHEAD} years`);
  }

  if (!/^\d{3,4}$/.test(input.cvc)) throw fail('cvc', 'CVC must be 3 or 4 digits');

  return {
    number,
    cvc: input.cvc,
    brand: detectCardBrand(number),
    last4: number.slice(-4),
    expMonth: month,
    expYear: year,
  };
}

function readExpiry(
  input: CardInput,
  fail: (field: string, message: string, code?: ErrorCode) => ApiError,
): { month: number; year: number; field?: 'expiry' } {
  if (input.expiry !== undefined) {
    const match = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(input.expiry);
    if (!match) throw fail('expiry', 'Expiry must be MM/YY');
    return { month: Number(match[1]), year: fullYear(Number(match[2])), field: 'expiry' };
  }
  if (input.expMonth === undefined) throw fail('expMonth', 'Expiry month is required');
  if (input.expYear === undefined) throw fail('expYear', 'Expiry year is required');
  return { month: input.expMonth, year: fullYear(input.expYear) };
}

/** Two-digit years are this century's: 27 → 2027. */
function fullYear(year: number): number {
  return year < 100 ? 2000 + year : year;
}
