export const CARD_BRANDS = ['visa', 'mastercard', 'amex', 'discover', 'card'] as const;
export type CardBrand = (typeof CARD_BRANDS)[number];

/**
 * The brand of a card number from its issuer identification prefix; `card` when unknown.
 * Spaces and dashes are ignored, so it also reads a number as it is being typed.
 */
export function detectCardBrand(number: string): CardBrand {
  const digits = number.replace(/\D/g, '');
  const prefix4 = Number(digits.slice(0, 4));
  if (digits.startsWith('4')) return 'visa';
  if (/^5[1-5]/.test(digits) || (prefix4 >= 2221 && prefix4 <= 2720)) return 'mastercard';
  if (/^3[47]/.test(digits)) return 'amex';
  if (/^(6011|65|64[4-9])/.test(digits)) return 'discover';
  return 'card';
}

/** A stored brand read back: one of CARD_BRANDS, else `card`. */
export function toCardBrand(value: string): CardBrand {
  return (CARD_BRANDS as readonly string[]).includes(value) ? (value as CardBrand) : 'card';
}
