import {
  LOYALTY_TIER_THRESHOLDS,
  LOYALTY_WELCOME_POINTS,
  type LoyaltyHistoryEntry,
  type LoyaltyMembership,
  type LoyaltyTier,
} from '@showroom/contracts/accounts';
import { Link } from 'react-router';
import { formatOrderDate } from '../orders/order-details';

/** The programme's name, as the banner and the pages say it. */
export const PROGRAMME_NAME = 'Showroom Circle';

export const tierLabel = (tier: LoyaltyTier | 'none') =>
  tier === 'none' ? 'None' : `${tier[0]!.toUpperCase()}${tier.slice(1)}`;

/** Points, tier and the way to the next tier (the api's `next`, from nextLoyaltyTier). */
export function MembershipSummary({ membership }: { membership: LoyaltyMembership }) {
  const { tier, points, next } = membership;
  const from = LOYALTY_TIER_THRESHOLDS[tier];
  return (
    <div className="loyalty-summary" data-testid="loyalty-membership" data-tier={tier}>
      <dl className="loyalty-summary__facts">
        <div>
          <dt>Tier</dt>
          <dd className={`tier tier--${tier}`} data-testid="loyalty-tier">
            {tierLabel(tier)}
          </dd>
        </div>
        <div>
          <dt>Points</dt>
          <dd data-testid="loyalty-points">{points}</dd>
        </div>
      </dl>
      {next ? (
        <>
          <p data-testid="loyalty-next">
            {next.pointsToGo} {next.pointsToGo === 1 ? 'point' : 'points'} to {tierLabel(next.tier)}
          </p>
          <progress
            className="loyalty-progress"
            max={LOYALTY_TIER_THRESHOLDS[next.tier] - from}
            value={points - from}
            aria-label={`Progress to ${tierLabel(next.tier)}`}
          />
        </>
      ) : (
        <p data-testid="loyalty-next">You are at the top tier.</p>
      )}
    </div>
  );
}

/** Every points entry, newest first: the welcome bonus and each order's points. */
export function PointsHistory({ history }: { history: readonly LoyaltyHistoryEntry[] }) {
  return (
    <div className="loyalty-history" data-testid="loyalty-history">
      <h3>Points history</h3>
      {history.length === 0 ? (
        <p className="muted">No points yet: every order earns one point per dollar.</p>
      ) : (
        <ul>
          {history.map((entry) => (
            <li key={entry.id} data-testid="loyalty-history-entry" data-reason={entry.reason}>
              <span className="loyalty-history__points">
                {entry.points >= 0 ? '+' : ''}
                {entry.points}
              </span>{' '}
              {entry.reason === 'welcome' ? (
                'Welcome bonus'
              ) : entry.orderId ? (
                <>
                  Order{' '}
                  <Link to={`/order/${encodeURIComponent(entry.orderId)}`}>{entry.orderId}</Link>
                </>
              ) : (
                'Order'
              )}{' '}
              <span className="muted">· {formatOrderDate(entry.createdAt)}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * The way in for a shopper outside the programme. Shoppers from the loyalty list are invited
 * first (the api's `invited`), with the welcome bonus.
 */
export function LoyaltyInvite({ invited }: { invited: boolean }) {
  return (
    <div
      className={`loyalty-invite${invited ? ' loyalty-invite--invited' : ''}`}
      data-testid="loyalty-invite"
      data-invited={invited}
    >
      {invited ? (
        <>
          <p>
            <strong>You're invited to {PROGRAMME_NAME}.</strong> Join now and start with{' '}
            {LOYALTY_WELCOME_POINTS} welcome points.
          </p>
          <Link to="/loyalty-signup" className="button button--accent">
            Accept the invitation
          </Link>
        </>
      ) : (
        <>
          <p>
            Earn one point per dollar on every order: Silver from {LOYALTY_TIER_THRESHOLDS.silver}{' '}
            points, Gold from {LOYALTY_TIER_THRESHOLDS.gold}.
          </p>
          <Link to="/loyalty-signup" className="button">
            Join the loyalty programme
          </Link>
        </>
      )}
    </div>
  );
}
