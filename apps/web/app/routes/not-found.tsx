import type { Route } from './+types/not-found';
import { pageNotFound } from '../lib/page-errors';

/** Catch-all: any path no other route matches is a 404 (docs/requirements.md §2, §8). */
export function loader({ request }: Route.LoaderArgs) {
  pageNotFound(request);
}

export default function NotFoundPage() {
  return null;
}
