/**
 * Where an order is placed (`POST`): the one request that takes stock, so the web server's page
 * cache forgets its pages when one succeeds (docs/architecture.md "Performance"). A module of
 * its own, without schemas, so the browser bundle takes the string alone.
 */
export const PLACE_ORDER_PATH = '/checkout/orders';
