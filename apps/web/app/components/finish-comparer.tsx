import { useState } from 'react';
import { useDemoFeature } from '../flags/use-demo-feature';

const FINISHES = ['Natural oil', 'White wash', 'Smoked', 'Ebonised', 'Honey lacquer', 'Raw'];

/**
 * Deliberately heavy on purpose (`showLoAF`): comparing finishes recomputes a large shading table
 * synchronously on the main thread, so the interaction produces long animation frames for the
 * monitoring SDK to record. Nothing else in the shop does this.
 */
export function shadeFinishes(seed: number, iterations: number): number[] {
  const totals = FINISHES.map(() => 0);
  for (let i = 0; i < iterations; i++) {
    const index = i % FINISHES.length;
    totals[index] = (totals[index] ?? 0) + Math.sin(seed + i) * Math.cos(i / 7) * Math.sqrt(i + 1);
  }
  return totals.map((total) => Math.round(Math.abs(total) % 100));
}

export function FinishComparer({ productId }: { productId: number }) {
  const enabled = useDemoFeature('showLoAF');
  const [scores, setScores] = useState<number[] | null>(null);
  if (!enabled) return null;
  return (
    <section className="finish-comparer" data-testid="finish-comparer">
      <h2>Compare finishes</h2>
      <button
        type="button"
        className="button"
        onClick={() => setScores(shadeFinishes(productId + Date.now(), 12_000_000))}
      >
        Render all finishes
      </button>
      {scores ? (
        <ul className="finish-comparer__list" data-testid="finish-scores">
          {FINISHES.map((finish, index) => (
            <li key={finish}>
              {finish}: warmth {scores[index]}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
