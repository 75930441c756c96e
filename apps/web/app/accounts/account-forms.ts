import {
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  VERIFICATION_CODE_LENGTH,
  type JoinLoyaltyBody,
  type ProfileAddress,
  type ProfileView,
  type UpdateProfileBody,
} from '@showroom/contracts/accounts';
import {
  DEFAULT_SHIPPING_COUNTRY,
  isShippingCountry,
  type ShippingCountry,
} from '@showroom/contracts/shipping';
import { ApiError } from '../lib/api-client';
import { messageOf } from '../lib/api-errors';

/**
 * The account forms' rules (sign-up, sign-in, codes, profile, loyalty): presence and shape
 * only, as every form of the shop (docs/requirements.md R-5.5) — the api has the last word and
 * its field errors land next to the same fields.
 */

/** Form errors by the form's field name. */
export type FormErrors<F extends string = string> = Partial<Record<F, string>>;

/** The contract's e-mail shape (packages/contracts accounts.ts). */
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** What each field says when it is missing or malformed, from the form or from the api. */
export const FIELD_MESSAGES = {
  name: 'Enter your name',
  email: 'Enter a valid e-mail address',
  password: `Use at least ${PASSWORD_MIN_LENGTH} characters`,
  passwordTooLong: `Use at most ${PASSWORD_MAX_LENGTH} characters`,
  signInPassword: 'Enter your password',
  code: `Enter the ${VERIFICATION_CODE_LENGTH}-digit code from the e-mail`,
  address1: 'Enter the street address',
  address2: 'Shorten the second address line',
  city: 'Enter the city',
  postalCode: 'Enter a valid postal code',
  country: 'Choose a country we ship to',
  consent: 'Tick the box to agree to the programme terms',
  birthday: 'Enter your birthday as a real date in the past',
} as const;

const blank = (value: string) => value.trim() === '';

const checkEmail = (email: string) =>
  EMAIL_SHAPE.test(email.trim()) ? undefined : FIELD_MESSAGES.email;

/** Drops the fields without a message, so an empty object means "no errors". */
function only<F extends string>(errors: Record<F, string | undefined>): FormErrors<F> {
  return Object.fromEntries(
    Object.entries(errors).filter(([, message]) => message !== undefined),
  ) as FormErrors<F>;
}

export const hasErrors = (errors: FormErrors) => Object.keys(errors).length > 0;

// Sign-up and sign-in ------------------------------------------------------------------------

export interface SignUpValues {
  name: string;
  email: string;
  password: string;
}

export function validateSignUp(values: SignUpValues): FormErrors<keyof SignUpValues> {
  const { length } = values.password;
  return only({
    name: blank(values.name) ? FIELD_MESSAGES.name : undefined,
    email: checkEmail(values.email),
    password:
      length < PASSWORD_MIN_LENGTH
        ? FIELD_MESSAGES.password
        : length > PASSWORD_MAX_LENGTH
          ? FIELD_MESSAGES.passwordTooLong
          : undefined,
  });
}

export interface SignInValues {
  email: string;
  password: string;
}

export function validateSignIn(values: SignInValues): FormErrors<keyof SignInValues> {
  return only({
    email: checkEmail(values.email),
    password: values.password === '' ? FIELD_MESSAGES.signInPassword : undefined,
  });
}

// Codes --------------------------------------------------------------------------------------

/** What the code field keeps of a typed or pasted value: its digits, at most six. */
export function normaliseCode(input: string): string {
  return input.replace(/\D/g, '').slice(0, VERIFICATION_CODE_LENGTH);
}

export function validateCode(code: string): string | undefined {
  return new RegExp(`^\\d{${VERIFICATION_CODE_LENGTH}}$`).test(code)
    ? undefined
    : FIELD_MESSAGES.code;
}

// Profile ------------------------------------------------------------------------------------

export interface ProfileFormValues {
  name: string;
  email: string;
  address1: string;
  address2: string;
  city: string;
  postalCode: string;
  country: ShippingCountry;
}

export type ProfileField = keyof ProfileFormValues;

export const PROFILE_FIELDS = [
  'name',
  'email',
  'address1',
  'address2',
  'city',
  'postalCode',
  'country',
] as const satisfies readonly ProfileField[];

/** A saved address as the text fields of a form (empty without one). */
export function addressLines(address: ProfileAddress | null) {
  return {
    address1: address?.address1 ?? '',
    address2: address?.address2 ?? '',
    city: address?.city ?? '',
    postalCode: address?.postalCode ?? '',
  };
}

/** The form as the profile is now. */
export function profileFormValues(profile: ProfileView): ProfileFormValues {
  return {
    name: profile.name,
    email: profile.email,
    ...addressLines(profile.address),
    country: profile.address?.country ?? DEFAULT_SHIPPING_COUNTRY,
  };
}

/** A stored draft laid over the profile's values (a country the shop no longer ships to is dropped). */
export function withDraft(
  values: ProfileFormValues,
  draft: Partial<Record<ProfileField, string>> | null,
): ProfileFormValues {
  if (!draft) return values;
  const { country, ...text } = draft;
  return {
    ...values,
    ...text,
    ...(country && isShippingCountry(country) ? { country } : {}),
  };
}

/** Whether the shopper gave an address at all: the address is optional on the profile. */
export const hasAddress = (values: ProfileFormValues) =>
  [values.address1, values.address2, values.city, values.postalCode].some((part) => !blank(part));

export function validateProfile(values: ProfileFormValues): FormErrors<ProfileField> {
  const address = hasAddress(values);
  return only({
    name: blank(values.name) ? FIELD_MESSAGES.name : undefined,
    email: checkEmail(values.email),
    address1: address && blank(values.address1) ? FIELD_MESSAGES.address1 : undefined,
    address2: undefined,
    city: address && blank(values.city) ? FIELD_MESSAGES.city : undefined,
    postalCode: address && blank(values.postalCode) ? FIELD_MESSAGES.postalCode : undefined,
    country: undefined,
  });
}

/**
 * The `PATCH /profile` body: the name, the e-mail address only when it changed (a change sends
 * a code; an unchanged one must not), and the address — `null` removes a kept one.
 */
export function profileUpdate(values: ProfileFormValues, profile: ProfileView): UpdateProfileBody {
  const email = values.email.trim();
  const emailChanged = email.toLowerCase() !== profile.email.trim().toLowerCase();
  const address2 = values.address2.trim();
  const address: ProfileAddress | null = hasAddress(values)
    ? {
        address1: values.address1.trim(),
        ...(address2 ? { address2 } : {}),
        city: values.city.trim(),
        postalCode: values.postalCode.trim(),
        country: values.country,
      }
    : null;
  return {
    name: values.name.trim(),
    ...(emailChanged ? { email } : {}),
    ...(address !== null || profile.address !== null ? { address } : {}),
  };
}

// Loyalty ------------------------------------------------------------------------------------

export interface LoyaltyJoinValues {
  consent: boolean;
  /** `YYYY-MM-DD` from a date input, or empty. */
  birthday: string;
}

/** A real calendar date (no 31 February), after 1900 and before `today`. */
export function isPastDate(value: string, today: Date): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = match.slice(1).map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  const real =
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  return real && year >= 1900 && value < today.toISOString().slice(0, 10);
}

export function validateLoyaltyJoin(
  values: LoyaltyJoinValues,
  today: Date,
): FormErrors<keyof LoyaltyJoinValues> {
  return only({
    consent: values.consent ? undefined : FIELD_MESSAGES.consent,
    birthday:
      values.birthday === '' || isPastDate(values.birthday, today)
        ? undefined
        : FIELD_MESSAGES.birthday,
  });
}

export function loyaltyJoinBody(values: LoyaltyJoinValues): JoinLoyaltyBody {
  return { consent: true, ...(values.birthday ? { birthday: values.birthday } : {}) };
}

// Api answers --------------------------------------------------------------------------------

/**
 * An api failure about one of the form's fields, as that field's message: our words for a
 * malformed value (VALIDATION_ERROR), the shop's sentence for the rest (an e-mail address in
 * use, a wrong code with the tries left). Null when the failure names none of the form's
 * fields: the form shows it above its button.
 *
 * `fields` maps the api's field path (`address.postalCode`) to the form's field.
 */
export function fieldErrorOf<F extends string>(
  error: unknown,
  fields: Readonly<Record<string, F>>,
  messages: Readonly<Partial<Record<F, string>>> = FIELD_MESSAGES as Partial<Record<F, string>>,
): FormErrors<F> | null {
  if (!(error instanceof ApiError) || !error.field) return null;
  const field = fields[error.field];
  if (field === undefined) return null;
  const message =
    error.code === 'VALIDATION_ERROR' ? (messages[field] ?? messageOf(error)) : messageOf(error);
  return { [field]: message } as FormErrors<F>;
}

/** The api's field paths of the profile form. */
export const PROFILE_API_FIELDS: Readonly<Record<string, ProfileField>> = {
  name: 'name',
  email: 'email',
  address: 'address1',
  'address.address1': 'address1',
  'address.address2': 'address2',
  'address.city': 'city',
  'address.postalCode': 'postalCode',
  'address.country': 'country',
};
