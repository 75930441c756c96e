import { Link } from 'react-router';
import { useDemoFeature } from '../flags/use-demo-feature';

/** Loyalty programme entry point, shown while `showLoyaltyProgram` is effective. */
export function LoyaltyBanner() {
  if (!useDemoFeature('showLoyaltyProgram')) return null;
  return (
    <aside className="loyalty-banner" data-testid="loyalty-banner">
      <strong>Showroom Circle</strong> — earn points on every order and get members-only prices.{' '}
      <Link to="/loyalty-signup">Join the loyalty programme</Link>
    </aside>
  );
}
