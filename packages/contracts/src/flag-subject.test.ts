import { describe, expect, it } from 'vitest';
import { buildFlagSubject } from './flag-subject.js';
import { DEMO_USER } from './shopper.js';

describe('buildFlagSubject', () => {
  it('keys the subject by the shopper id and keeps typed attributes', () => {
    const subject = buildFlagSubject(
      {
        id: 'a1b2c3',
        name: 'ada.lovelace',
        email: 'ada@example.com',
        team: 'sales',
        useDiscount: true,
        useNewCheckoutFlow: false,
      },
      'Firefox',
    );
    expect(subject).toEqual({
      targetingKey: 'a1b2c3',
      attributes: {
        browser: 'Firefox',
        user_id: 'a1b2c3',
        user_name: 'ada.lovelace',
        user_email: 'ada@example.com',
        team: 'sales',
        useDiscount: true,
        useNewCheckoutFlow: false,
      },
    });
  });

  it("keeps the demo user's null useDiscount, so IS_NULL rules match it", () => {
    expect(buildFlagSubject(DEMO_USER, 'Chrome').attributes.useDiscount).toBeNull();
  });

  it('gives an anonymous shopper an empty targeting key and only the browser', () => {
    expect(buildFlagSubject(null, 'Safari')).toEqual({
      targetingKey: '',
      attributes: { browser: 'Safari' },
    });
  });

  it('carries the loyalty tier and membership of an account persona (decision 008)', () => {
    const subject = buildFlagSubject(
      { ...DEMO_USER, id: 'acc_x', tier: 'gold', loyaltyMember: true },
      'Chrome',
    );
    expect(subject.targetingKey).toBe('acc_x');
    expect(subject.attributes).toMatchObject({ tier: 'gold', loyaltyMember: true });
    expect(buildFlagSubject(DEMO_USER, 'Chrome').attributes).not.toHaveProperty('tier');
  });
});
