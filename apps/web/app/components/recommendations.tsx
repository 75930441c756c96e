import { Suspense, useEffect } from 'react';
import { Await } from 'react-router';
import type { ProductSummary } from '@showroom/contracts/catalog';
import { useStringFlagValue } from '../flags/use-flag';
import {
  DEFAULT_RECOMMENDATION_STRATEGY,
  isRecommendationStrategy,
  recommend,
} from '../lib/recommendations';
import { reportFault } from '../monitoring/track';
import { ProductCard } from './product-card';

const STRATEGY_TITLES = {
  bestsellers: 'Bestsellers in this department',
  'similar-materials': 'Made from similar materials',
  'price-low': 'More for less',
} as const;

interface RecommendationsProps {
  product: { id: number; materials: string[] };
  /**
   * The department's products, still on their way (deferred by the page's loader); null when
   * the api could not answer them.
   */
  candidates: Promise<ProductSummary[] | null>;
}

/**
 * "You may also like", below the fold: streamed in when the candidates arrive, with a short
 * placeholder until then. When they cannot be loaded the page says so quietly and stays up.
 */
export function Recommendations({ product, candidates }: RecommendationsProps) {
  return (
    <Suspense fallback={<RecommendationsPending />}>
      <Await resolve={candidates} errorElement={<RecommendationsUnavailable />}>
        {(resolved) =>
          resolved ? (
            <RecommendationList product={product} candidates={resolved} />
          ) : (
            <RecommendationsUnavailable />
          )
        }
      </Await>
    </Suspense>
  );
}

function RecommendationsPending() {
  return (
    <section className="recommendations" aria-busy="true" data-testid="recommendations-pending">
      <p className="muted">Finding recommendations…</p>
    </section>
  );
}

export function RecommendationsUnavailable() {
  // Reported to monitoring once per page (FAULT_RUM_ERRORS.recommendationsFailed, decision 010).
  useEffect(() => reportFault('recommendationsFailed'), []);
  return (
    <p className="recommendations muted" data-testid="recommendations-unavailable">
      Recommendations are not available right now.
    </p>
  );
}

/** The candidates ordered by the `recommendations_strategy` flag for this shopper. */
function RecommendationList({
  product,
  candidates,
}: {
  product: RecommendationsProps['product'];
  candidates: ProductSummary[];
}) {
  const flagged = useStringFlagValue('recommendations_strategy', DEFAULT_RECOMMENDATION_STRATEGY);
  const strategy = isRecommendationStrategy(flagged) ? flagged : DEFAULT_RECOMMENDATION_STRATEGY;
  const picks = recommend(product, candidates, strategy);
  if (picks.length === 0) return null;
  return (
    <section
      className="recommendations"
      aria-labelledby="recommendations-heading"
      data-strategy={strategy}
    >
      <h2 id="recommendations-heading">You may also like — {STRATEGY_TITLES[strategy]}</h2>
      <div className="product-grid">
        {picks.map((pick) => (
          <ProductCard key={pick.id} product={pick} />
        ))}
      </div>
    </section>
  );
}
