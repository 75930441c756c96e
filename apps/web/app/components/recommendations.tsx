import { useStringFlagValue } from '@openfeature/react-sdk';
import type { ProductSummary } from '@showroom/contracts/catalog';
import {
  DEFAULT_RECOMMENDATION_STRATEGY,
  isRecommendationStrategy,
  recommend,
} from '../lib/recommendations';
import { ProductCard } from './product-card';

const STRATEGY_TITLES = {
  bestsellers: 'Bestsellers in this department',
  'similar-materials': 'Made from similar materials',
  'price-low': 'More for less',
} as const;

/** "You may also like", ordered by the `recommendations_strategy` flag for this shopper. */
export function Recommendations({
  product,
  candidates,
}: {
  product: { id: number; materials: string[] };
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
