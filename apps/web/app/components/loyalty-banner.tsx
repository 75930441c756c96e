import { LOYALTY_WELCOME_POINTS } from '@showroom/contracts/accounts';
import { Link } from 'react-router';
import { useDemoFeature } from '../flags/use-demo-feature';
import { usePersona } from '../startup/persona';

/**
 * Loyalty programme entry point, shown while `showLoyaltyProgram` is effective. Shoppers from
 * the loyalty list who have not joined are invited first, with the welcome bonus; members are
 * shown their tier instead of a pitch.
 */
export function LoyaltyBanner() {
  const enabled = useDemoFeature('showLoyaltyProgram');
  const persona = usePersona();
  if (!enabled) return null;
  if (persona?.loyaltyMember) {
    return (
      <aside className="loyalty-banner" data-testid="loyalty-banner" data-variant="member">
        <strong>Showroom Circle</strong> — you're a{' '}
        {persona.tier === 'none' ? '' : `${persona.tier} `}member: every order earns points.{' '}
        <Link to="/profile">See your points</Link>
      </aside>
    );
  }
  if (persona?.list === 'loyalty') {
    return (
      <aside
        className="loyalty-banner loyalty-banner--invited"
        data-testid="loyalty-banner"
        data-variant="invited"
      >
        <strong>You're invited to Showroom Circle</strong> — join now and start with{' '}
        {LOYALTY_WELCOME_POINTS} welcome points.{' '}
        <Link to="/loyalty-signup" data-testid="loyalty-banner-link">
          Accept the invitation
        </Link>
      </aside>
    );
  }
  return (
    <aside className="loyalty-banner" data-testid="loyalty-banner" data-variant="join">
      <strong>Showroom Circle</strong> — earn points on every order and get members-only prices.{' '}
      <Link to="/loyalty-signup" data-testid="loyalty-banner-link">
        Join the loyalty programme
      </Link>
    </aside>
  );
}
