import { describe, expect, it } from 'vitest';
import { detectCardBrand, toCardBrand } from './card-brand.js';

describe('detectCardBrand', () => {
  it.each([
    ['4242424242424242', 'visa'],
    ['5555555555554444', 'mastercard'],
    ['2223003122003222', 'mastercard'],
    ['378282246310005', 'amex'],
    ['6011111111111117', 'discover'],
    ['3530111333300000', 'card'],
    ['4242 4242-4242 4242', 'visa'],
  ])('%s is %s', (digits, brand) => {
    expect(detectCardBrand(digits)).toBe(brand);
  });
});

describe('toCardBrand', () => {
  it('keeps a known brand and reads anything else as card', () => {
    expect(toCardBrand('amex')).toBe('amex');
    expect(toCardBrand('diners')).toBe('card');
  });
});
