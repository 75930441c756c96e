import {
  SHIPPING_COUNTRIES,
  countryName,
  isShippingCountry,
  type ShippingCountry,
} from '@showroom/contracts/shipping';

/** The shipping countries; the api prices shipping for the one chosen. */
export function CountrySelect({
  id,
  value,
  disabled,
  onChange,
  invalid,
  describedBy,
}: {
  id: string;
  value: ShippingCountry;
  disabled?: boolean;
  onChange(country: ShippingCountry): void;
  invalid?: boolean;
  describedBy?: string | undefined;
}) {
  return (
    <select
      id={id}
      name="country"
      value={value}
      disabled={disabled}
      aria-invalid={invalid || undefined}
      aria-describedby={describedBy}
      onChange={(event) => {
        if (isShippingCountry(event.target.value)) onChange(event.target.value);
      }}
    >
      {SHIPPING_COUNTRIES.map((country) => (
        <option key={country} value={country}>
          {countryName(country)}
        </option>
      ))}
    </select>
  );
}
