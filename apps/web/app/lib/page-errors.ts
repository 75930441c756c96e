import { data } from 'react-router';

export interface PageErrorData {
  message: string;
}

/** Spec §2/§8: a path that matches no route. */
export function pageNotFound(request: Request): never {
  throw data<PageErrorData>(
    { message: `Page not found: ${new URL(request.url).pathname}` },
    { status: 404 },
  );
}

/** Spec §5: a route whose validity check fails (unknown department, product…). */
export function routeInvalid(request: Request): never {
  throw data<PageErrorData>(
    { message: `Page Not Found: ${new URL(request.url).pathname}` },
    { status: 404 },
  );
}
