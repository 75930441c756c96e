import { describe, expect, it } from 'vitest';
import { cleanAddress, fieldMessage, formFieldOf, validateAddress } from './checkout-errors';

const address = {
  name: ' Ada Lovelace ',
  email: 'ada@example.com',
  address1: '12 Workshop Lane',
  address2: '  ',
  city: 'Springfield',
  postalCode: 'AB1 2CD',
  country: 'GB',
};

describe('checkout errors', () => {
  it('shows one expiry field for the api expiry fields', () => {
    expect(formFieldOf('payment.card.expMonth')).toBe('payment.card.expiry');
    expect(formFieldOf('payment.card.expYear')).toBe('payment.card.expiry');
    expect(formFieldOf('expMonth')).toBe('expiry');
    expect(formFieldOf('shipping.email')).toBe('shipping.email');
  });

  it('rewrites schema messages and keeps the api sentences', () => {
    expect(
      fieldMessage('shipping.postalCode', 'body.shipping.postalCode must match pattern "^x$"'),
    ).toBe('Enter a valid postal code');
    expect(fieldMessage('payment.card.expiry', 'Card has expired')).toBe('Card has expired');
    expect(fieldMessage('shipping.other', 'body.shipping.other is odd')).toBe(
      'body.shipping.other is odd',
    );
  });

  it('requires the address fields and trims what is sent', () => {
    expect(validateAddress(address)).toEqual({});
    expect(validateAddress({ ...address, city: ' ', email: '' })).toEqual({
      'shipping.city': 'Enter the city',
      'shipping.email': 'Enter a valid e-mail address',
    });
    expect(cleanAddress(address)).toEqual({
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      address1: '12 Workshop Lane',
      city: 'Springfield',
      postalCode: 'AB1 2CD',
      country: 'GB',
    });
  });
});
