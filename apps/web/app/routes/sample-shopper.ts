import type { ErrorResponse } from '@showroom/contracts/errors';
import { lookUpSampleShopper } from '../lib/sample-shoppers.server';
import type { Route } from './+types/sample-shopper';

/**
 * GET /shoppers/{kind}/{day}/{index} (startup/day-slice.ts, sampleShopperPath): one sample
 * shopper, which a browser filling its identity drew. The lists change only
 * with a new build. A bad segment answers 404 with the api's error shape, naming it.
 */
export function loader({ params }: Route.LoaderArgs) {
  const found = lookUpSampleShopper(params);
  if ('shopper' in found) {
    return Response.json(found.shopper, { headers: { 'cache-control': 'public, max-age=3600' } });
  }
  const body: ErrorResponse = {
    error: { code: 'NOT_FOUND', message: found.message, field: found.field },
  };
  return Response.json(body, {
    status: 404,
    headers: { 'cache-control': 'no-store' },
  });
}
