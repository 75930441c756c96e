import type { Kysely } from 'kysely';
import nodemailer from 'nodemailer';
import type { Database } from '../../db/schema.js';
import { randomId } from '../session/random-id.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/**
 * Sends the shop's mail. With SMTP_URL set it goes through that server (nodemailer); without
 * it, it is kept in the database's outbox, which `GET /outbox` and the /outbox page list to the
 * session it belongs to (decision 008).
 */
export interface Mailer {
  readonly delivery: 'outbox' | 'smtp';
  /** `ownerId`: the session whose outbox holds the message. */
  send(ownerId: string, message: MailMessage, now: Date): Promise<void>;
  close(): void;
}

export const DEFAULT_MAIL_FROM = 'Showroom <no-reply@showroom.localhost>';

export function createOutboxMailer(db: Kysely<Database>): Mailer {
  return {
    delivery: 'outbox',
    async send(ownerId, message, now) {
      await db
        .insertInto('outbox_messages')
        .values({
          id: randomId('msg'),
          session_id: ownerId,
          to_address: message.to,
          subject: message.subject,
          body_text: message.text,
          created_at: now.toISOString(),
        })
        .execute();
    },
    close() {},
  };
}

export function createSmtpMailer(smtpUrl: string, from = DEFAULT_MAIL_FROM): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    delivery: 'smtp',
    async send(_ownerId, message) {
      await transport.sendMail({
        from,
        to: message.to,
        subject: message.subject,
        text: message.text,
      });
    },
    close() {
      transport.close();
    },
  };
}
