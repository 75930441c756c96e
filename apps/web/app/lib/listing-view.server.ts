import { redirect } from 'react-router';
import { productQueryString } from '@showroom/contracts/product-query';
import { hasDollarFields, readListingView, type ListingView } from './listing-view';

/**
 * The view a listing or search loader renders, from its request's URL. A filter form sent
 * without JavaScript carries prices in dollars: the answer is then a redirect to the canonical
 * URL (cents, one order), so every view has one address to share.
 */
export function listingViewOf<S extends string>(
  request: Request,
  sorts: readonly [S, ...S[]],
): ListingView<S> {
  const url = new URL(request.url);
  const view = readListingView(url.searchParams, sorts);
  if (hasDollarFields(url.searchParams)) {
    throw redirect(`${url.pathname}${productQueryString(view)}`);
  }
  return view;
}
