import { findVerificationCode, type OutboxList } from '@showroom/contracts/accounts';
import { Link } from 'react-router';
import { ShopQueryView } from '../components/shop-query-view';
import { useAccountQuery } from '../lib/account-session';
import { pageMeta } from '../lib/page-meta';

export function meta() {
  return pageMeta(
    'Outbox',
    'The mail Showroom sent you in this browser, with your sign-up and e-mail change codes.',
  );
}

const timeFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/**
 * /outbox: the mail the shop sent this browser session. Without SMTP configured the api keeps
 * its mail instead of sending it (decision 008), so this is where a demo shopper — or a test —
 * reads the sign-up and e-mail-change codes.
 */
export default function OutboxPage() {
  const outbox = useAccountQuery('outbox', (client) => client.listOutbox());
  return (
    <section className="account-page account-page--wide outbox-page" data-testid="outbox">
      <h1>Outbox</h1>
      <p className="muted">
        The mail this shop sent you in this browser, newest first.{' '}
        <button type="button" className="link-button" onClick={outbox.reload}>
          Refresh
        </button>
      </p>
      <ShopQueryView query={outbox} loading="Loading your mail…">
        {(list) => <Messages list={list} />}
      </ShopQueryView>
      <p className="muted">
        Back to your code: <Link to="/signup-verify">sign-up</Link> ·{' '}
        <Link to="/verification">new e-mail address</Link>
      </p>
    </section>
  );
}

function Messages({ list }: { list: OutboxList }) {
  const messages = [...list.messages].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  return (
    <div data-testid="outbox-messages" data-delivery={list.delivery}>
      {list.delivery === 'smtp' ? (
        <p className="notice" data-testid="outbox-smtp">
          This shop sends its mail by e-mail: look for the code in your inbox.
        </p>
      ) : null}
      {messages.length === 0 ? (
        <p className="muted" data-testid="outbox-empty">
          No mail yet. Codes appear here when you sign up or change your e-mail address.
        </p>
      ) : (
        <ol className="outbox-list">
          {messages.map((message) => {
            const code = findVerificationCode(message.text);
            return (
              <li key={message.id}>
                <article
                  className="outbox-message"
                  data-testid="outbox-message"
                  data-message-id={message.id}
                >
                  <h2>{message.subject}</h2>
                  <p className="muted">
                    To <span data-testid="outbox-to">{message.to}</span> ·{' '}
                    <time dateTime={message.createdAt}>
                      {timeFormat.format(new Date(message.createdAt))}
                    </time>
                  </p>
                  {code ? (
                    <p className="outbox-message__code">
                      Code: <strong data-testid="outbox-code">{code}</strong>
                    </p>
                  ) : null}
                  <pre className="outbox-message__text">{message.text}</pre>
                </article>
              </li>
            );
          })}
        </ol>
      )}
    </div>
  );
}
