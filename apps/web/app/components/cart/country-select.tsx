import { SHIPPING_COUNTRIES } from '../../lib/countries';

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
  value: string;
  disabled?: boolean;
  onChange(country: string): void;
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
      onChange={(event) => onChange(event.target.value)}
    >
      {SHIPPING_COUNTRIES.map((country) => (
        <option key={country.code} value={country.code}>
          {country.name}
        </option>
      ))}
    </select>
  );
}
