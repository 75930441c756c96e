import { useState } from 'react';
import { brandLabel } from '../../checkout/card-form';
import { useAccountClient } from '../../lib/account-session';
import { useShopClient } from '../../lib/shop-session';
import type { PaymentMethod } from '@showroom/contracts/payments';
import { messageOf } from '../../lib/api-errors';
import { useShopQuery, type ShopQueryResult } from '../../lib/use-shop-query';
import { ShopQueryView } from '../shop-query-view';

/**
 * Saved cards, the default one first with its badge; each can be deleted and any other made
 * the default (offered first at checkout). The api keeps only brand, last four and expiry.
 */
export function SavedCardList({
  cards,
  onDeleted,
  onChanged,
}: {
  cards: PaymentMethod[];
  onDeleted(id: string): void;
  /** The api's list after a new default was chosen. */
  onChanged(cards: PaymentMethod[]): void;
}) {
  const client = useShopClient();
  const account = useAccountClient();
  const [busy, setBusy] = useState<{ id: string; action: 'delete' | 'default' } | null>(null);
  const [error, setError] = useState<string | null>(null);

  const act = async (card: PaymentMethod, action: 'delete' | 'default') => {
    if (!client || !account) return;
    setBusy({ id: card.id, action });
    setError(null);
    try {
      if (action === 'delete') {
        await client.deletePaymentMethod(card.id);
        onDeleted(card.id);
      } else {
        onChanged(await account.setDefaultPaymentMethod(card.id));
      }
    } catch (caught) {
      setError(messageOf(caught));
    } finally {
      setBusy(null);
    }
  };
  const named = (card: PaymentMethod) => (
    <span className="visually-hidden">
      {' '}
      {brandLabel(card.brand)} ending {card.last4}
    </span>
  );

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
          <li
            key={card.id}
            className="saved-card"
            data-testid="saved-card"
            data-card-id={card.id}
            data-default={card.isDefault}
          >
            <span className="saved-card__brand">{brandLabel(card.brand)}</span>
            <span className="saved-card__number">•••• {card.last4}</span>
            <span className="muted">
              Expires {String(card.expMonth).padStart(2, '0')}/{card.expYear}
            </span>
            {card.isDefault ? (
              <span className="badge" data-testid="default-card-badge">
                Default
              </span>
            ) : null}
            <span className="saved-card__actions">
              {card.isDefault ? null : (
                <button
                  type="button"
                  className="link-button"
                  disabled={busy !== null}
                  onClick={() => void act(card, 'default')}
                >
                  {busy?.id === card.id && busy.action === 'default' ? 'Saving…' : 'Make default'}
                  {named(card)}
                </button>
              )}
              <button
                type="button"
                className="link-button"
                disabled={busy !== null}
                onClick={() => void act(card, 'delete')}
              >
                {busy?.id === card.id && busy.action === 'delete' ? 'Deleting…' : 'Delete'}
                {named(card)}
              </button>
            </span>
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

/**
 * The saved cards as they load. A deleted card leaves the list at once; the list is then read
 * again, since deleting the default makes another card the default.
 */
export function SavedCards({ cards }: { cards: ShopQueryResult<PaymentMethod[]> }) {
  return (
    <ShopQueryView query={cards} loading="Loading your cards…">
      {(list) => (
        <SavedCardList
          cards={list}
          onDeleted={(id) => {
            cards.setData(list.filter((card) => card.id !== id));
            cards.reload();
          }}
          onChanged={cards.setData}
        />
      )}
    </ShopQueryView>
  );
}
