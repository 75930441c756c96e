import { Link } from 'react-router';
import { AddCardForm } from '../components/profile/add-card-form';
import { SavedCards, useSavedCards } from '../components/profile/saved-cards';
import { pageMeta } from '../lib/page-meta';

export function meta() {
  return pageMeta(
    'Payment methods',
    'Your saved cards: add one, choose the one offered first at checkout, or delete one.',
  );
}

/**
 * /profile-payment: the session's saved cards — add one (verified by the gateway), choose the
 * default (offered first at checkout), delete.
 */
export default function ProfilePaymentPage() {
  const cards = useSavedCards();
  return (
    <section className="profile-page" data-testid="profile-payment">
      <p className="breadcrumbs">
        <Link to="/profile">Your profile</Link> / Payment methods
      </p>
      <h1>Payment methods</h1>
      <div className="profile-payment">
        <section className="profile-section" aria-labelledby="saved-cards-heading">
          <h2 id="saved-cards-heading">Saved cards</h2>
          <SavedCards cards={cards} />
        </section>
        <section className="profile-section" aria-labelledby="add-card-heading">
          <h2 id="add-card-heading">Add a card</h2>
          <p className="muted">
            We keep the brand, the last four digits and the expiry date — never the full number or
            the security code.
          </p>
          {/* Read again: the api orders the list (default first) and picks the first default. */}
          <AddCardForm onSaved={() => cards.reload()} />
        </section>
      </div>
    </section>
  );
}
