import { Link } from 'react-router';
import { OrderHistory } from '../components/profile/order-history';
import { LoyaltySection } from '../components/profile/loyalty-section';
import { ProfileSummary } from '../components/profile/profile-summary';
import { SavedCards, useSavedCards } from '../components/profile/saved-cards';
import { useDemoFeature } from '../flags/use-demo-feature';
import { usePersona } from '../startup/persona';
import { useAccountQuery } from '../lib/account-session';
import { pageMeta } from '../lib/page-meta';

export function meta() {
  return pageMeta(
    'Your profile',
    'Your Showroom profile: your details, your orders, your saved cards and loyalty points.',
  );
}

/**
 * /profile: who is shopping (a signed-in account or the sample shopper), their orders and —
 * with the showPayments and showLoyaltyProgram features — their saved cards and loyalty
 * points. Sign-in and sign-out change the session, so everything below is loaded again for
 * the new persona.
 */
export default function ProfilePage() {
  const persona = usePersona();
  // Keyed by account: a sign-in or sign-out switches sessions, so everything loads again.
  return <ProfileBody key={persona?.list === 'account' ? persona.id : 'guest'} />;
}

function ProfileBody() {
  const persona = usePersona();
  const profile = useAccountQuery('profile', (client) => client.getProfile());
  const showPayments = useDemoFeature('showPayments');
  const showLoyalty = useDemoFeature('showLoyaltyProgram');
  return (
    <section className="profile-page" data-testid="profile">
      <h1>Your profile</h1>
      <ProfileSummary profile={profile} persona={persona} />
      <p className="profile-page__links">
        <Link to="/profile-edit">Edit profile</Link>
        <Link to="/profile-payment">Payment methods</Link>
      </p>
      {showLoyalty ? <LoyaltySection /> : null}
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
