import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { createShopperAgent } from '../../test/shop-factories.js';
import { createTestDatabase, type TestDatabase } from '../../test/test-database.js';
import { findVerificationCode, type OutboxList } from '@showroom/contracts/accounts';
import type { SessionView } from '@showroom/contracts/session';
import { createSmtpMailer } from './mailer.js';

interface Received {
  from: string | undefined;
  to: string[];
  data: string;
}

/** A real SMTP server on loopback (the `smtp-server` package) that keeps what it receives. */
async function startSmtpServer() {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : undefined,
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          data: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let testDb: TestDatabase;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let app: FastifyInstance;

beforeAll(async () => {
  testDb = await createTestDatabase();
  smtp = await startSmtpServer();
  app = await buildApp({
    database: testDb.database,
    mailer: createSmtpMailer(smtp.url, 'Showroom <shop@showroom.test>'),
  });
});

afterAll(async () => {
  await app.close();
  await smtp.close();
  await testDb.destroy();
});

describe('verification mail through SMTP (SMTP_URL)', () => {
  it('sends the code to a real SMTP server, and the code read there verifies the account', async () => {
    const agent = createShopperAgent(app);
    const email = 'grace.hopper@example.com';
    const started = await agent.post('/accounts', {
      name: 'Grace Hopper',
      email,
      password: 'compilers are friends',
    });
    expect(started.statusCode).toBe(202);
    expect(started.json()).toMatchObject({ delivery: 'smtp', email });

    expect(smtp.received).toHaveLength(1);
    const [mail] = smtp.received;
    expect(mail?.from).toBe('shop@showroom.test');
    expect(mail?.to).toEqual([email]);
    expect(mail?.data).toMatch(/^Subject: Your Showroom verification code/m);
    // The body, after the headers (a Message-ID or Date could hold six digits of its own).
    const body = (mail?.data ?? '').split('\r\n\r\n').slice(1).join('\r\n\r\n');
    expect(body).toContain('valid for 10 minutes');
    const code = findVerificationCode(body);
    expect(code).toMatch(/^\d{6}$/);

    // Sent by SMTP, so nothing waits in the database outbox.
    expect((await agent.get('/outbox')).json()).toEqual({
      messages: [],
      delivery: 'smtp',
    } satisfies OutboxList);
    const verified = await agent.post('/accounts/verification', { code });
    expect(verified.statusCode).toBe(200);
    expect((verified.json() as SessionView).account?.email).toBe(email);
  });
});
