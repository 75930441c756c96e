/** Quantities one cart line holds: the api refuses more (QUANTITY_LIMIT), the stepper stops there. */
export const MIN_LINE_QUANTITY = 1;
export const MAX_LINE_QUANTITY = 99;
