import { useAccountQuery } from '../../lib/account-session';
import {
  LoyaltyInvite,
  MembershipSummary,
  PointsHistory,
  PROGRAMME_NAME,
} from '../loyalty/membership';
import { ShopQueryView } from '../shop-query-view';

/** The profile's loyalty standing (showLoyaltyProgram): points and history, or the invite. */
export function LoyaltySection() {
  const loyalty = useAccountQuery('loyalty', (client) => client.getLoyalty());
  return (
    <section
      className="profile-section"
      aria-labelledby="loyalty-heading"
      data-testid="loyalty-section"
    >
      <h2 id="loyalty-heading">{PROGRAMME_NAME}</h2>
      <ShopQueryView query={loyalty} loading="Loading your points…">
        {({ membership, invited }) =>
          membership ? (
            <>
              <MembershipSummary membership={membership} />
              <PointsHistory history={membership.history} />
            </>
          ) : (
            <LoyaltyInvite invited={invited} />
          )
        }
      </ShopQueryView>
    </section>
  );
}
