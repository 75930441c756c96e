import { describe, expect, it } from 'vitest';
import {
  EMPTY_CARD_FORM,
  brandLabel,
  formatCardNumberInput,
  formatExpiryInput,
  parseExpiry,
  toCardInput,
  validateCardForm,
} from './card-form';

describe('card expiry', () => {
  it.each([
    ['12/30', { month: 12, year: 2030 }],
    ['1/29', { month: 1, year: 2029 }],
    [' 07 / 2031 ', { month: 7, year: 2031 }],
    ['0828', { month: 8, year: 2028 }],
  ])('reads %j', (raw, expected) => {
    expect(parseExpiry(raw)).toEqual(expected);
  });

  it.each(['', '13/30', '00/30', '12/3', '12-30', '123/30', 'ab/cd'])('rejects %j', (raw) => {
    expect(parseExpiry(raw)).toBeNull();
  });

  it('formats typing as MM/YY', () => {
    expect(formatExpiryInput('1')).toBe('1');
    expect(formatExpiryInput('4')).toBe('04/');
    expect(formatExpiryInput('12')).toBe('12');
    expect(formatExpiryInput('12/')).toBe('12/');
    expect(formatExpiryInput('123')).toBe('12/3');
    expect(formatExpiryInput('1230')).toBe('12/30');
    expect(formatExpiryInput('12/305')).toBe('12/30');
    expect(formatExpiryInput('1/')).toBe('01/');
    expect(formatExpiryInput('ab')).toBe('');
  });
});

describe('card number', () => {
  it('groups digits in fours and drops anything else', () => {
    expect(formatCardNumberInput('4242424242424242')).toBe('4242 4242 4242 4242');
    expect(formatCardNumberInput('4000-0000-0000-0002')).toBe('4000 0000 0000 0002');
    expect(formatCardNumberInput('42424')).toBe('4242 4');
    expect(formatCardNumberInput('1'.repeat(25)).replace(/ /g, '')).toHaveLength(19);
  });
});

describe('card form validation', () => {
  const valid = { number: '4242 4242 4242 4242', expiry: '12/30', cvc: '123', saveCard: true };

  it('finds nothing wrong with a complete card', () => {
    expect(validateCardForm(valid)).toEqual({});
  });

  it('names each missing or malformed field', () => {
    expect(Object.keys(validateCardForm(EMPTY_CARD_FORM)).sort()).toEqual([
      'cvc',
      'expiry',
      'number',
    ]);
    expect(validateCardForm({ ...valid, cvc: '12' })).toEqual({
      cvc: 'Enter the 3 or 4 digit security code',
    });
    expect(validateCardForm({ ...valid, expiry: '13/30' })).toEqual({
      expiry: 'Enter the expiry as MM/YY',
    });
  });

  it('turns the form into the card the api takes', () => {
    expect(toCardInput(valid)).toEqual({
      number: '4242424242424242',
      expMonth: 12,
      expYear: 2030,
      cvc: '123',
    });
    expect(() => toCardInput({ ...valid, expiry: 'soon' })).toThrow(/MM\/YY/);
  });

  it('labels brands', () => {
    expect(brandLabel('visa')).toBe('Visa');
    expect(brandLabel('card')).toBe('Card');
  });
});
