import { describe, expect, it } from 'vitest';
import { ApiError } from '../../http/errors.js';
import {
  isLuhnValid,
  normaliseCardNumber,
  validateCard,
  type CardInput,
} from './card-validation.js';
import { TEST_CARDS } from './gateway.js';

const now = new Date('2026-05-15T12:00:00Z');
const good: CardInput = { number: '4242 4242 4242 4242', expMonth: 12, expYear: 2028, cvc: '123' };

function failure(input: CardInput, prefix?: string): ApiError {
  try {
    validateCard(input, { now, ...(prefix === undefined ? {} : { fieldPrefix: prefix }) });
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error('expected validateCard to throw');
}

describe('isLuhnValid', () => {
  it.each([
    TEST_CARDS.succeeds,
    TEST_CARDS.declines,
    TEST_CARDS.gatewayError,
    '5555555555554444',
    '378282246310005',
    '6011111111111117',
    '79927398713',
  ])('accepts %s', (digits) => {
    expect(isLuhnValid(digits)).toBe(true);
  });

  it.each(['4242424242424241', '1234567812345678', '79927398710', '', '4242x42424242424'])(
    'rejects %j',
    (digits) => {
      expect(isLuhnValid(digits)).toBe(false);
    },
  );
});

describe('validateCard', () => {
  it('answers brand, last four and a four-digit year, number without spaces', () => {
    expect(validateCard(good, { now })).toEqual({
      number: '4242424242424242',
      cvc: '123',
      brand: 'visa',
      last4: '4242',
      expMonth: 12,
      expYear: 2028,
    });
    expect(normaliseCardNumber('4242-4242 4242-4242')).toBe('4242424242424242');
  });

  it('accepts expiry as MM/YY or as month and two-digit year', () => {
    expect(
      validateCard({ number: good.number, expiry: '07/29', cvc: '1234' }, { now }),
    ).toMatchObject({
      expMonth: 7,
      expYear: 2029,
    });
    expect(validateCard({ ...good, expMonth: 1, expYear: 30 }, { now })).toMatchObject({
      expYear: 2030,
    });
  });

  it('treats a card as valid through the end of its expiry month', () => {
    expect(validateCard({ ...good, expMonth: 5, expYear: 2026 }, { now })).toMatchObject({
      expMonth: 5,
    });
    expect(failure({ ...good, expMonth: 4, expYear: 2026 })).toMatchObject({
      statusCode: 400,
      field: 'expMonth',
      message: 'Card has expired',
    });
    expect(failure({ ...good, expMonth: 12, expYear: 2025 })).toMatchObject({ field: 'expYear' });
    expect(failure({ number: good.number, expiry: '04/26', cvc: '123' })).toMatchObject({
      field: 'expiry',
    });
  });

  it.each<[string, CardInput, string, string?]>([
    ['a short number', { ...good, number: '4242 4242' }, 'number'],
    ['letters in the number', { ...good, number: '4242 4242 4242 424x' }, 'number'],
    [
      'a failed check digit',
      { ...good, number: '4242 4242 4242 4241' },
      'number',
      'CARD_NUMBER_INVALID',
    ],
    ['month 13', { ...good, expMonth: 13 }, 'expMonth'],
    ['no month', { number: good.number, expYear: 2028, cvc: '123' }, 'expMonth'],
    ['no year', { number: good.number, expMonth: 1, cvc: '123' }, 'expYear'],
    ['a year 30 years ahead', { ...good, expYear: 2056 }, 'expYear'],
    ['expiry 2028-12', { number: good.number, expiry: '2028-12', cvc: '123' }, 'expiry'],
    ['expiry 00/28', { number: good.number, expiry: '00/28', cvc: '123' }, 'expiry'],
    ['a 2-digit CVC', { ...good, cvc: '12' }, 'cvc'],
    ['a 5-digit CVC', { ...good, cvc: '12345' }, 'cvc'],
    ['letters in the CVC', { ...good, cvc: '12a' }, 'cvc'],
  ])('rejects %s naming the field', (_, input, field, code = 'VALIDATION_ERROR') => {
    expect(failure(input)).toMatchObject({ statusCode: 400, code, field });
    expect(failure(input, 'payment.card.')).toMatchObject({ field: `payment.card.${field}` });
  });

  it('never echoes the card number or CVC in its messages', () => {
    const messages = [
      failure({ ...good, number: '4242 4242 4242 4241' }).message,
      failure({ ...good, cvc: '98' }).message,
    ].join(' ');
    expect(messages).not.toMatch(/4241|98/);
  });
});
