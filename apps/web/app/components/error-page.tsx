import { Link } from 'react-router';

export interface ErrorPageProps {
  status: number;
  message: string;
  stack?: string | undefined;
}

export function errorHeading(status: number): string {
  return status === 404 ? 'Page Not Found' : 'Internal Server Error';
}

export function ErrorPage({ status, message, stack }: ErrorPageProps) {
  return (
    <section className="error-page" aria-labelledby="error-heading">
      <p className="error-page__status">{status}</p>
      <h1 id="error-heading">{errorHeading(status)}</h1>
      <p className="error-page__message">{message}</p>
      {stack ? <pre className="error-page__stack">{stack}</pre> : null}
      <Link className="button" to="/">
        Back to the shop
      </Link>
    </section>
  );
}
