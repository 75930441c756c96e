import type { ProductSummary } from '@showroom/contracts/catalog';

/** Variants of the `recommendations_strategy` string flag. */
export const RECOMMENDATION_STRATEGIES = ['bestsellers', 'similar-materials', 'price-low'] as const;
export type RecommendationStrategy = (typeof RECOMMENDATION_STRATEGIES)[number];
export const DEFAULT_RECOMMENDATION_STRATEGY: RecommendationStrategy = 'bestsellers';

export function isRecommendationStrategy(value: string): value is RecommendationStrategy {
  return (RECOMMENDATION_STRATEGIES as readonly string[]).includes(value);
}

/**
 * "You may also like": other products of the department, ordered by the strategy the flag
 * service chose for this shopper. Ties keep the shop's featured order.
 */
export function recommend(
  current: { id: number; materials: string[] },
  candidates: ProductSummary[],
  strategy: RecommendationStrategy,
  count = 4,
): ProductSummary[] {
  const others = candidates.filter((product) => product.id !== current.id);
  const shared = (product: ProductSummary) =>
    product.materials.filter((material) => current.materials.includes(material)).length;
  const byFeatured = (a: ProductSummary, b: ProductSummary) => a.id - b.id;
  const ordered = [...others].sort((a, b) => {
    if (strategy === 'price-low') return a.priceCents - b.priceCents || byFeatured(a, b);
    if (strategy === 'similar-materials') return shared(b) - shared(a) || byFeatured(a, b);
    return byFeatured(a, b);
  });
  return ordered.slice(0, count);
}
