import { describe, expect, it } from 'vitest';
import type { ShippingAddress } from '@showroom/contracts/orders';
import { cleanAddress, formFieldOf, validateAddress } from './checkout-errors';

const address: ShippingAddress = {
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
