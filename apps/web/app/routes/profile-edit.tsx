import type { PendingVerification, ProfileView } from '@showroom/contracts/accounts';
import type { ShippingCountry } from '@showroom/contracts/shipping';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import {
  PROFILE_API_FIELDS,
  profileFormValues,
  profileUpdate,
  validateProfile,
  withDraft,
  type ProfileField,
} from '../accounts/account-forms';
import { DRAFTS } from '../accounts/form-drafts';
import { AccountAlert, AccountNotice } from '../components/accounts/account-alert';
import { useAccountForm } from '../components/accounts/use-account-form';
import { useFormDraft } from '../components/accounts/use-form-draft';
import { CountrySelect } from '../components/cart/country-select';
import { FieldError, FormField } from '../components/checkout/form-field';
import { ShopQueryView } from '../components/shop-query-view';
import { useAccountClient, useAccountQuery } from '../lib/account-session';
import { pageMeta } from '../lib/page-meta';

export function meta() {
  return pageMeta(
    'Edit profile',
    'Change your name, your e-mail address and your shipping address.',
  );
}

/**
 * /profile-edit: name, e-mail address and shipping address (optional; the checkout starts
 * from it). A new e-mail address is used only once the code sent to it comes back
 * (/verification); until then the profile keeps the old one.
 */
export default function ProfileEditPage() {
  const profile = useAccountQuery('profile', (client) => client.getProfile());
  return (
    <section className="profile-page" data-testid="profile-edit">
      <p className="breadcrumbs">
        <Link to="/profile">Your profile</Link> / Edit profile
      </p>
      <h1>Edit profile</h1>
      <ShopQueryView query={profile} loading="Loading your profile…">
        {(current) => <ProfileEditForm profile={current} onSaved={profile.setData} />}
      </ShopQueryView>
    </section>
  );
}

interface Saved {
  verification: PendingVerification | null;
}

function ProfileEditForm({
  profile,
  onSaved,
}: {
  profile: ProfileView;
  onSaved(profile: ProfileView): void;
}) {
  const client = useAccountClient();
  const countryId = useId();
  const { draft, save, clear } = useFormDraft(DRAFTS.profile.form, DRAFTS.profile.fields);
  const {
    errors,
    setErrors,
    alert,
    busy: saving,
    formRef,
    submit: send,
  } = useAccountForm(PROFILE_API_FIELDS);
  const [saved, setSaved] = useState<Saved | null>(null);
  const values = withDraft(profileFormValues(profile), draft);
  const set = (field: ProfileField, value: string) => {
    setSaved(null);
    save({ [field]: value });
  };

  const submit = async () => {
    if (!client || saving) return;
    setSaved(null);
    await send(
      validateProfile(values),
      async () => {
        const result = await client.updateProfile(profileUpdate(values, profile));
        clear();
        onSaved(result.profile);
        setSaved({ verification: result.verification });
      },
      { afterSuccess: 'idle' },
    );
  };

  const field = (name: Exclude<ProfileField, 'country'>, label: string, autoComplete: string) => (
    <FormField
      label={label}
      name={name}
      autoComplete={autoComplete}
      type={name === 'email' ? 'email' : 'text'}
      value={values[name]}
      error={errors[name]}
      disabled={saving}
      onChange={(event) => set(name, event.target.value)}
    />
  );

  return (
    <form
      ref={formRef}
      className="account-form profile-edit-form"
      data-testid="profile-edit-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      {profile.pendingEmail && !saved?.verification ? (
        <p className="notice" data-testid="profile-pending-email">
          Waiting for the code sent to <strong>{profile.pendingEmail}</strong>.{' '}
          <Link to="/verification">Enter the code</Link>
        </p>
      ) : null}
      <fieldset className="profile-edit-form__group">
        <legend>About you</legend>
        {field('name', 'Full name', 'name')}
        {field('email', 'E-mail', 'email')}
        <p className="form-field__hint muted">
          A new address is used once you enter the code we send to it.
        </p>
      </fieldset>
      <fieldset className="profile-edit-form__group" data-testid="profile-address-fields">
        <legend>Shipping address (optional)</legend>
        {field('address1', 'Address', 'address-line1')}
        {field('address2', 'Apartment, suite (optional)', 'address-line2')}
        <div className="form-row">
          {field('city', 'City', 'address-level2')}
          {field('postalCode', 'Postal code', 'postal-code')}
        </div>
        <div className="form-field">
          <label htmlFor={countryId}>Country</label>
          <CountrySelect
            id={countryId}
            value={values.country}
            disabled={saving}
            invalid={Boolean(errors.country)}
            describedBy={errors.country ? `${countryId}-error` : undefined}
            onChange={(country: ShippingCountry) => set('country', country)}
          />
          <FieldError id={`${countryId}-error`} error={errors.country} />
        </div>
      </fieldset>
      <AccountAlert message={alert} />
      {saved ? <SavedNotice verification={saved.verification} /> : null}
      <div className="account-form__actions">
        <button
          type="submit"
          className="button button--primary"
          disabled={!client || saving}
          aria-busy={saving}
        >
          {saving ? 'Saving…' : 'Save'}
        </button>
        {draft ? (
          <button
            type="button"
            className="link-button"
            disabled={saving}
            onClick={() => {
              clear();
              setErrors({});
            }}
          >
            Discard changes
          </button>
        ) : null}
      </div>
    </form>
  );
}

function SavedNotice({ verification }: { verification: PendingVerification | null }) {
  return (
    <AccountNotice testId="profile-saved">
      <p>Your profile is saved.</p>
      {verification ? (
        <p data-testid="email-change-sent">
          We sent a code to <strong>{verification.email}</strong>: your e-mail address changes once
          you{' '}
          <Link to="/verification" state={{ pending: verification }}>
            enter the code
          </Link>
          .
        </p>
      ) : null}
    </AccountNotice>
  );
}
