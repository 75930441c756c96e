import { describe, expect, it } from 'vitest';
import { amountContext, trackAction, trackError, type MonitoringSink } from './track';
import { MONITORING_ACTIONS } from '@showroom/contracts/monitoring-constants';

function recordingSink(): MonitoringSink & { calls: unknown[][] } {
  const calls: unknown[][] = [];
  return {
    calls,
    addAction: (name, context) => void calls.push(['action', name, context]),
    addError: (error, context) => void calls.push(['error', error, context]),
  };
}

describe('trackAction', () => {
  it('sends the named action with its context, leaving out undefined entries', () => {
    const sink = recordingSink();
    trackAction(
      MONITORING_ACTIONS.addToCart,
      { product_id: 3, edition: undefined, ...amountContext(12_950, 'EUR') },
      sink,
    );
    expect(sink.calls).toEqual([
      [
        'action',
        'add to cart',
        { product_id: 3, amount: 129.5, amount_cents: 12_950, currency: 'EUR' },
      ],
    ]);
  });

  it('does nothing without monitoring (blocked SDK, webview, server rendering)', () => {
    expect(() => trackAction(MONITORING_ACTIONS.placeOrder, {}, undefined)).not.toThrow();
  });

  it('never lets a failing SDK fail the shop', () => {
    const broken: MonitoringSink = {
      addAction: () => {
        throw new Error('sdk bug');
      },
      addError: () => {
        throw new Error('sdk bug');
      },
    };
    expect(() => trackAction(MONITORING_ACTIONS.addToCart, {}, broken)).not.toThrow();
    expect(() => trackError(new Error('y'), {}, broken)).not.toThrow();
  });
});

describe('trackError', () => {
  it('reports the error object itself with its context', () => {
    const sink = recordingSink();
    const error = new Error('Out of stock');
    trackError(error, { source: 'error-modal', title: 'Could not add to cart' }, sink);
    expect(sink.calls).toEqual([
      ['error', error, { source: 'error-modal', title: 'Could not add to cart' }],
    ]);
  });
});
