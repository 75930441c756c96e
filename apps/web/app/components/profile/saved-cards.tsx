import { useState } from 'react';
import { brandLabel } from '../../checkout/card-form';
import { useShopClient } from '../../lib/shop-session';
import type { PaymentMethod } from '@showroom/contracts/payments';
import { messageOf } from '../../lib/api-errors';
import { useShopQuery, type ShopQueryResult } from '../../lib/use-shop-query';
import { ShopQueryView } from '../shop-query-view';

/** Saved cards with a delete button each; the api keeps only brand, last four and expiry. */
export function SavedCardList({
  cards,
  onDeleted,
}: {
  cards: PaymentMethod[];
  onDeleted(id: string): void;
}) {
  const client = useShopClient();
  const [deleting, setDeleting] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const remove = async (card: PaymentMethod) => {
    if (!client) return;
    setDeleting(card.id);
    setError(null);
    try {
      await client.deletePaymentMethod(card.id);
      onDeleted(card.id);
    } catch (caught) {
      setError(messageOf(caught));
    } finally {
      setDeleting(null);
    }
  };

  if (cards.length === 0) {
    return (
      <p className="muted" data-testid="no-saved-cards">
        No saved cards.
      </p>
    );
  }
  return (
    <>
      <ul className="saved-cards" data-testid="saved-card-list">
        {cards.map((card) => (
          <li key={card.id} className="saved-card" data-testid="saved-card">
            <span className="saved-card__brand">{brandLabel(card.brand)}</span>
            <span className="saved-card__number">•••• {card.last4}</span>
            <span className="muted">
              Expires {String(card.expMonth).padStart(2, '0')}/{card.expYear}
            </span>
            <button
              type="button"
              className="link-button"
              disabled={deleting !== null}
              onClick={() => void remove(card)}
            >
              {deleting === card.id ? 'Deleting…' : 'Delete'}
              <span className="visually-hidden">
                {' '}
                {brandLabel(card.brand)} ending {card.last4}
              </span>
            </button>
          </li>
        ))}
      </ul>
      {error ? (
        <p className="notice notice--error" role="alert">
          {error}
        </p>
      ) : null}
    </>
  );
}

/** The session's saved cards, loaded once start-up has run; `enabled: false` loads nothing. */
export function useSavedCards(enabled = true): ShopQueryResult<PaymentMethod[]> {
  return useShopQuery(enabled ? 'payment-methods' : null, (client) => client.listPaymentMethods());
}

/** The saved cards as they load; a deleted card leaves the list at once. */
export function SavedCards({ cards }: { cards: ShopQueryResult<PaymentMethod[]> }) {
  return (
    <ShopQueryView query={cards} loading="Loading your cards…">
      {(list) => (
        <SavedCardList
          cards={list}
          onDeleted={(id) => cards.setData(list.filter((card) => card.id !== id))}
        />
      )}
    </ShopQueryView>
  );
}
