import type { ShippingCountry } from '@showroom/contracts/shipping';
import { useId } from 'react';
import type { FieldErrors } from '../../checkout/checkout-errors';
import { CountrySelect } from '../cart/country-select';
import { FieldError, FormField } from './form-field';
import type { AddressFields } from './use-checkout-form';

/**
 * The shipping address. With the checkoutCountrySelector feature the country comes first
 * changing it re-prices shipping through the api.
 */
export function AddressForm({
  address,
  country,
  countryFirst,
  errors,
  disabled,
  onField,
  onCountry,
}: {
  address: AddressFields;
  country: ShippingCountry;
  countryFirst: boolean;
  errors: FieldErrors;
  disabled: boolean;
  onField(field: keyof AddressFields, value: string): void;
  onCountry(country: ShippingCountry): void;
}) {
  const countryId = useId();
  const field = (name: keyof AddressFields, label: string, autoComplete: string, extra = {}) => (
    <FormField
      label={label}
      name={name}
      autoComplete={autoComplete}
      value={address[name] ?? ''}
      error={errors[`shipping.${name}`]}
      disabled={disabled}
      onChange={(event) => onField(name, event.target.value)}
      {...extra}
    />
  );
  const countryField = (
    <div className="form-field" data-testid="country-field">
      <label htmlFor={countryId}>Country</label>
      <CountrySelect
        id={countryId}
        value={country}
        disabled={disabled}
        invalid={Boolean(errors['shipping.country'])}
        describedBy={errors['shipping.country'] ? `${countryId}-error` : undefined}
        onChange={onCountry}
      />
      <FieldError id={`${countryId}-error`} error={errors['shipping.country']} />
    </div>
  );
  return (
    <fieldset className="address-form" data-testid="address-form" data-country-first={countryFirst}>
      <legend className="visually-hidden">Shipping address</legend>
      {countryFirst ? countryField : null}
      {field('name', 'Full name', 'name')}
      {field('email', 'E-mail', 'email', { type: 'email' })}
      {field('address1', 'Address', 'address-line1')}
      {field('address2', 'Apartment, suite (optional)', 'address-line2')}
      <div className="form-row">
        {field('city', 'City', 'address-level2')}
        {field('postalCode', 'Postal code', 'postal-code')}
      </div>
      {countryFirst ? null : countryField}
    </fieldset>
  );
}
