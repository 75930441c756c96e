import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errorRef, notFound } from '../../http/errors.js';
import {
  AccountIdParamsSchema,
  OutboxListSchema,
  OutboxMessageIdParamsSchema,
  OutboxMessageSchema,
  PendingVerificationSchema,
  ResendCodeBodySchema,
  SignInBodySchema,
  SignUpBodySchema,
  VerifyCodeBodySchema,
} from '@showroom/contracts/accounts';
import { SessionViewSchema } from '@showroom/contracts/session';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import {
  setSessionCookie,
  tagSpan,
  type FindSession,
  type RequireSession,
} from '../session/require-session.js';
import type { SessionViewOf } from '../session/view.js';
import type { Accounts } from './service.js';
import type { Mailer } from './mailer.js';
import { CODE_CHECK_ERRORS, type Verifications } from './verifications.js';

export interface AccountRoutesOptions {
  db: Kysely<Database>;
  requireSession: RequireSession;
  /** Reads the cookie's session without creating one (a read that finds nothing writes nothing). */
  findSession: FindSession;
  accounts: Accounts;
  verifications: Verifications;
  mailer: Mailer;
  view: SessionViewOf;
  /** Requests a minute per client on sign-up, sign-in and code routes. */
  rateLimitPerMinute: number;
}

const AccountSchema = Type.Object({
  id: Type.String(),
  email: Type.String(),
  name: Type.String(),
});

/**
 * Sign-up with an e-mailed code, sign-in, sign-out, the account and the outbox (decision 008).
 * The routes that take a password or a code are rate limited per client (429 + Retry-After).
 */
export const accountRoutes: FastifyPluginAsyncTypebox<AccountRoutesOptions> = async (
  app,
  { db, requireSession, findSession, accounts, verifications, mailer, view, rateLimitPerMinute },
) => {
  const limited = { rateLimit: { max: rateLimitPerMinute, timeWindow: 60_000 } };

  app.post(
    '/accounts',
    {
      config: limited,
      schema: {
        tags: ['accounts'],
        summary: 'Sign up: a six-digit code goes to the e-mail address',
        description:
          'Nothing is created until the code comes back (POST /accounts/verification). ' +
          '409 EMAIL_TAKEN when an account has the address.',
        body: SignUpBodySchema,
        response: { 202: PendingVerificationSchema, 400: errorRef, 409: errorRef, 429: errorRef },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request, reply);
      const pending = await accounts.signUp(session, request.body, new Date());
      return reply.status(202).send(pending);
    },
  );

  app.get(
    '/accounts/verification',
    {
      schema: {
        tags: ['accounts'],
        summary: "This session's sign-up waiting for its code",
        response: { 200: PendingVerificationSchema, 404: errorRef },
      },
    },
    async (request) => {
      // A browser without a session has no sign-up waiting: answer 404 without creating one.
      const session = await findSession(request);
      const row = session && (await verifications.find(session.id, 'signup'));
      if (!row) throw notFound('No sign-up is waiting for a code');
      return verifications.toPending(row);
    },
  );

  app.post(
    '/accounts/verification',
    {
      config: limited,
      schema: {
        tags: ['accounts'],
        summary: 'Verify the sign-up code: the account exists and this browser is signed in',
        description:
          'Valid 10 minutes (410 CODE_EXPIRED after), 5 wrong tries lock it (423 CODE_LOCKED). ' +
          "The session's cart, orders and cards become the account's; the cookie is renewed.",
        body: VerifyCodeBodySchema,
        response: { 200: SessionViewSchema, ...CODE_CHECK_ERRORS },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request, reply);
      const signedIn = await accounts.verifySignUp(session, request.body.code, new Date());
      setSessionCookie(reply, signedIn.browserSessionId);
      tagSpan(request, signedIn);
      return view(signedIn);
    },
  );

  app.post(
    '/verification/resend',
    {
      config: limited,
      schema: {
        tags: ['accounts'],
        summary: 'Send a new code for the pending sign-up or e-mail change (once a minute)',
        body: ResendCodeBodySchema,
        response: { 202: PendingVerificationSchema, 400: errorRef, 404: errorRef, 429: errorRef },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request, reply);
      const pending = await verifications.resend(session.id, request.body.purpose, new Date());
      return reply.status(202).send(pending);
    },
  );

  app.post(
    '/session/sign-in',
    {
      config: limited,
      schema: {
        tags: ['accounts'],
        summary: 'Sign in: a new session for the account, with this browser’s cart merged in',
        body: SignInBodySchema,
        response: { 200: SessionViewSchema, 400: errorRef, 401: errorRef, 429: errorRef },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request, reply);
      const signedIn = await accounts.signIn(session, request.body, new Date());
      setSessionCookie(reply, signedIn.browserSessionId);
      tagSpan(request, signedIn);
      return view(signedIn);
    },
  );

  app.post(
    '/session/sign-out',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Sign out: this browser gets a new anonymous session',
        response: { 200: SessionViewSchema },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request, reply);
      const anonymous = await accounts.signOut(session, new Date());
      setSessionCookie(reply, anonymous.browserSessionId);
      return view(anonymous);
    },
  );

  app.get(
    '/accounts/:id',
    {
      schema: {
        tags: ['accounts'],
        summary: 'The signed-in account (404 for any other id)',
        params: AccountIdParamsSchema,
        response: { 200: AccountSchema, 400: errorRef, 404: errorRef },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request, reply);
      if (session.account?.id !== request.params.id) throw notFound('Account not found');
      return session.account;
    },
  );

  const outboxMessages = (ownerId: string) =>
    db
      .selectFrom('outbox_messages')
      .select(['id', 'to_address as to', 'subject', 'body_text as text', 'created_at as createdAt'])
      .where('session_id', '=', ownerId);

  app.get(
    '/outbox',
    {
      schema: {
        tags: ['accounts'],
        summary: 'The mail this session was sent (when SMTP_URL is not set), newest first',
        response: { 200: OutboxListSchema },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request, reply);
      const messages = await outboxMessages(session.id)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(50)
        .execute();
      return { messages, delivery: mailer.delivery };
    },
  );

  app.get(
    '/outbox/:id',
    {
      schema: {
        tags: ['accounts'],
        summary: 'One message of this session’s outbox (404 for anyone else’s)',
        params: OutboxMessageIdParamsSchema,
        response: { 200: OutboxMessageSchema, 400: errorRef, 404: errorRef },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request, reply);
      const message = await outboxMessages(session.id)
        .where('id', '=', request.params.id)
        .executeTakeFirst();
      if (!message) throw notFound('Message not found');
      return message;
    },
  );
};
