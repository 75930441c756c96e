import type { ReactNode } from 'react';

/**
 * A table wider than a phone scrolls sideways in this box. Keyboard users scroll it too: it
 * is focusable (arrow keys scroll it) and named, so a screen reader says what it holds.
 */
export function ScrollRegion({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="inspector__scroll" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
