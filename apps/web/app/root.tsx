import { useContext, useEffect, type ReactNode } from 'react';
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  isRouteErrorResponse,
  useNavigate,
  useRouteLoaderData,
} from 'react-router';
import type { ShowroomLoadContext } from '../server/load-context';
import type { Route } from './+types/root';
import { ErrorPage } from './components/error-page';
import { Footer } from './components/footer';
import { Navbar } from './components/navbar';
import { loadDepartments } from './lib/departments.server';
import { documentStartupData } from './lib/runtime-config.server';
import stylesheet from './styles/app.css?url';
import { DocumentStyles } from './styles/document-styles';
import { CspNonceContext } from './lib/csp-nonce';

// In production the stylesheet is inline (DocumentStyles); the dev server links it for hot reload.
export const links: Route.LinksFunction = () => [
  ...(import.meta.env.DEV ? [{ rel: 'stylesheet', href: stylesheet }] : []),
  // A PNG, not an SVG: docs/architecture.md "Performance".
  { rel: 'icon', href: '/favicon.png', type: 'image/png', sizes: '48x48' },
];

declare module 'react-router' {
  // The web server's load context (server/load-context.ts); absent where a loader runs without it.
  interface AppLoadContext {
    build?: ShowroomLoadContext['build'];
    cspNonce?: ShowroomLoadContext['cspNonce'];
    pageCache?: ShowroomLoadContext['pageCache'];
  }
}

/**
 * Every page's data: the departments (navbar) and, for the browser's start-up, the one
 * deployment profile predicted for this request (`documentProfile`) plus `profileIndex`, the index
 * of every profile key with its ship parameter and hosts — not the profiles themselves — and the
 * build this document belongs to, with the new-build check interval.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const departments = await loadDepartments(context);
  const { profileIndex, documentProfile } = documentStartupData(request);
  return { departments, profileIndex, documentProfile, build: context.build ?? null };
}

export type RootData = Awaited<ReturnType<typeof loader>>;

export function useRootData(): RootData | undefined {
  return useRouteLoaderData<typeof loader>('root');
}

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useContext(CspNonceContext);
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#2f3e34" />
        <Meta />
        {import.meta.env.DEV ? null : <DocumentStyles />}
        <Links />
      </head>
      <body>
        {/* The first stop of the keyboard on every page: past the header to the page itself. */}
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App({ loaderData }: Route.ComponentProps) {
  const { build } = loaderData;
  const navigate = useNavigate();
  // New-build detection and the manifest: a chunk loaded after hydration,
  // counted as deferred in bundle-budget.json; it starts once per page load.
  useEffect(() => {
    if (build)
      void import('./builds/build-watch').then((watch) => watch.startBuildWatch(build, navigate));
  }, [build, navigate]);
  return <Outlet />;
}

export function meta() {
  return [
    { title: 'Showroom — furniture for every room' },
    { name: 'description', content: 'Tables, chairs, sofas, bedding and lighting.' },
  ];
}

/**
 * One error page for the whole shop: 404 shows 'Page Not Found', anything else
 * 'Internal Server Error'; the description is the error's message. Stacks only in development.
 */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const root = useRootData();
  let status = 500;
  let message = 'Internal Server Error';
  let stack: string | undefined;
  if (isRouteErrorResponse(error)) {
    status = error.status;
    const data: unknown = error.data;
    if (data && typeof data === 'object' && 'message' in data && typeof data.message === 'string') {
      message = data.message;
    } else if (typeof data === 'string' && data) {
      message = data;
    } else {
      message = error.statusText || message;
    }
  } else if (error instanceof Error) {
    message = error.message;
    if (import.meta.env.DEV) stack = error.stack;
  }
  return (
    <div className="page">
      {root ? <Navbar departments={root.departments} /> : null}
      <main id="main" className="main">
        <ErrorPage status={status} message={message} stack={stack} />
      </main>
      <Footer />
    </div>
  );
}
