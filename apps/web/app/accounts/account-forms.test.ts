import { describe, expect, it } from 'vitest';
import type { ProfileView } from '@showroom/contracts/accounts';
import { ApiError } from '../lib/api-client';
import {
  FIELD_MESSAGES,
  PROFILE_API_FIELDS,
  fieldErrorOf,
  hasErrors,
  isPastDate,
  loyaltyJoinBody,
  normaliseCode,
  profileFormValues,
  profileUpdate,
  validateCode,
  validateLoyaltyJoin,
  validateProfile,
  validateSignIn,
  validateSignUp,
  withDraft,
} from './account-forms';

const profile = (overrides: Partial<ProfileView> = {}): ProfileView => ({
  kind: 'account',
  id: 'acc_1',
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  team: 'design',
  address: null,
  pendingEmail: null,
  tier: 'none',
  loyaltyMember: false,
  ...overrides,
});

describe('sign-up and sign-in', () => {
  it('asks for a name, an e-mail address and a long enough password', () => {
    expect(validateSignUp({ name: ' ', email: 'nope', password: 'short' })).toEqual({
      name: FIELD_MESSAGES.name,
      email: FIELD_MESSAGES.email,
      password: FIELD_MESSAGES.password,
    });
    expect(
      validateSignUp({ name: 'Ada', email: 'ada@example.com', password: 'x'.repeat(10) }),
    ).toEqual({});
    expect(
      validateSignUp({ name: 'Ada', email: 'ada@example.com', password: 'x'.repeat(129) }),
    ).toEqual({ password: FIELD_MESSAGES.passwordTooLong });
  });

  it('sign-in only needs an e-mail address and some password', () => {
    expect(validateSignIn({ email: 'ada@example.com', password: '' })).toEqual({
      password: FIELD_MESSAGES.signInPassword,
    });
    expect(hasErrors(validateSignIn({ email: 'ada@example.com', password: 'x' }))).toBe(false);
  });
});

describe('codes', () => {
  it('keeps the digits of a typed or pasted code, six at most', () => {
    expect(normaliseCode(' 123 456 ')).toBe('123456');
    expect(normaliseCode('12-34-56-78')).toBe('123456');
    expect(validateCode('12345')).toBe(FIELD_MESSAGES.code);
    expect(validateCode('123456')).toBeUndefined();
  });
});

describe('the profile form', () => {
  it('starts from the profile and lays a draft over it', () => {
    const values = profileFormValues(
      profile({
        address: { address1: '1 Main St', city: 'Town', postalCode: '123', country: 'JP' },
      }),
    );
    expect(values).toMatchObject({ address1: '1 Main St', address2: '', country: 'JP' });
    expect(withDraft(values, { name: 'Ada L.', country: 'XX' })).toMatchObject({
      name: 'Ada L.',
      country: 'JP',
    });
    expect(withDraft(values, { country: 'SE' }).country).toBe('SE');
  });

  it('needs the whole address once any of it is given', () => {
    const values = profileFormValues(profile());
    expect(validateProfile(values)).toEqual({});
    expect(validateProfile({ ...values, city: 'Town' })).toEqual({
      address1: FIELD_MESSAGES.address1,
      postalCode: FIELD_MESSAGES.postalCode,
    });
    expect(validateProfile({ ...values, name: '', email: 'x@' })).toEqual({
      name: FIELD_MESSAGES.name,
      email: FIELD_MESSAGES.email,
    });
  });

  it('sends the e-mail address only when it changed, and null to remove the address', () => {
    const current = profile({
      address: { address1: '1 Main St', city: 'Town', postalCode: '123', country: 'US' },
    });
    const values = profileFormValues(current);
    expect(profileUpdate({ ...values, email: ' ADA@example.com ' }, current)).toEqual({
      name: 'Ada Lovelace',
      address: { address1: '1 Main St', city: 'Town', postalCode: '123', country: 'US' },
    });
    expect(
      profileUpdate(
        { ...values, email: 'new@example.com', address1: '', city: '', postalCode: '' },
        current,
      ),
    ).toEqual({ name: 'Ada Lovelace', email: 'new@example.com', address: null });
    // No address before, none now: the address is left out.
    expect(profileUpdate(profileFormValues(profile()), profile())).toEqual({
      name: 'Ada Lovelace',
    });
  });
});

describe('joining the loyalty programme', () => {
  const today = new Date('2025-06-15T12:00:00Z');

  it('needs consent; the birthday is optional but must be a real past date', () => {
    expect(validateLoyaltyJoin({ consent: false, birthday: '' }, today)).toEqual({
      consent: FIELD_MESSAGES.consent,
    });
    expect(validateLoyaltyJoin({ consent: true, birthday: '1990-02-31' }, today)).toEqual({
      birthday: FIELD_MESSAGES.birthday,
    });
    expect(validateLoyaltyJoin({ consent: true, birthday: '1990-02-28' }, today)).toEqual({});
    expect(isPastDate('2025-06-15', today)).toBe(false);
    expect(isPastDate('1899-12-31', today)).toBe(false);
  });

  it('sends the birthday only when given', () => {
    expect(loyaltyJoinBody({ consent: true, birthday: '' })).toEqual({ consent: true });
    expect(loyaltyJoinBody({ consent: true, birthday: '1990-02-28' })).toEqual({
      consent: true,
      birthday: '1990-02-28',
    });
  });
});

describe('api field errors', () => {
  it('puts a malformed field in our words and other field failures in the shop’s', () => {
    const invalid = new ApiError(
      400,
      'VALIDATION_ERROR',
      'body.address.postalCode bad',
      'address.postalCode',
    );
    expect(fieldErrorOf(invalid, PROFILE_API_FIELDS)).toEqual({
      postalCode: FIELD_MESSAGES.postalCode,
    });
    const taken = new ApiError(409, 'EMAIL_TAKEN', 'taken', 'email');
    expect(fieldErrorOf(taken, PROFILE_API_FIELDS)).toEqual({
      email: 'An account already uses this e-mail address. Sign in instead.',
    });
    const wrong = new ApiError(400, 'CODE_INVALID', 'That code is not right: 3 tries left', 'code');
    expect(fieldErrorOf(wrong, { code: 'code' })).toEqual({
      code: 'That code is not right: 3 tries left',
    });
  });

  it('answers null for failures about no field of the form', () => {
    expect(
      fieldErrorOf(new ApiError(401, 'INVALID_CREDENTIALS', 'no'), { email: 'email' }),
    ).toBeNull();
    expect(
      fieldErrorOf(new ApiError(400, 'VALIDATION_ERROR', 'x', 'other'), { email: 'email' }),
    ).toBeNull();
    expect(fieldErrorOf(new Error('boom'), { email: 'email' })).toBeNull();
  });
});
