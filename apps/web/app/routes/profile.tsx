import { Link } from 'react-router';
import { OrderHistory } from '../components/profile/order-history';
import { SavedCards, useSavedCards } from '../components/profile/saved-cards';
import { useDemoFeature } from '../flags/use-demo-feature';
import { useStartup } from '../startup/startup-context';

export function meta() {
  return [{ title: 'Your profile — Showroom' }];
}

/**
 * /profile: who is shopping, their orders and — with the showPayments feature — their saved
 * cards. Accounts (sign-in, profile edit, loyalty points) extend this page.
 */
export default function ProfilePage() {
  const identity = useStartup()?.identity ?? null;
  const showPayments = useDemoFeature('showPayments');
  return (
    <section className="profile-page" data-testid="profile">
      <h1>Your profile</h1>
      {identity ? (
        <p className="muted" data-testid="profile-identity">
          Shopping as <strong>{identity.name}</strong> ({identity.email}) · team {identity.team}
        </p>
      ) : null}
      <p className="profile-page__links">
        <Link to="/profile-edit">Edit profile</Link>
        <Link to="/profile-payment">Payment methods</Link>
      </p>
      <OrderHistory />
      {showPayments ? <ProfileSavedCards /> : null}
    </section>
  );
}

function ProfileSavedCards() {
  const cards = useSavedCards();
  return (
    <section className="profile-section" aria-labelledby="saved-cards-heading">
      <h2 id="saved-cards-heading">Saved cards</h2>
      <SavedCards cards={cards} />
      <p>
        <Link to="/profile-payment">Add or manage cards</Link>
      </p>
    </section>
  );
}
