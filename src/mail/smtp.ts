import nodemailer from 'nodemailer';
import { DEFAULT_SEND_TIMEOUT_MS } from '../domain/notifications/delivery.ts';
import type { Attachment } from '../domain/notifications/message.ts';

export interface OutgoingMail {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  attachments: Attachment[];
  /** The same for every attempt at one message, so a mail system that got it twice can tell. */
  messageId: string;
}

export interface MailTransport {
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

/**
 * SMTP through nodemailer, at `url` (smtp://user:pass@host:587, smtps://… for TLS from the start), waiting up to
 * `timeoutMs` for any reply of the server, above all the one accepting a message (a server scanning it may be slow).
 */
export function smtpTransport(url: string, { timeoutMs = DEFAULT_SEND_TIMEOUT_MS } = {}): MailTransport {
  // Every wait is bounded; the worker renews a message's lease for as long as its send takes.
  const setupMs = Math.min(10_000, timeoutMs);
  const transport = nodemailer.createTransport({
    url,
    connectionTimeout: setupMs,
    greetingTimeout: setupMs,
    socketTimeout: timeoutMs,
  });
  return {
    send: async (mail) => {
      await transport.sendMail({
        ...mail,
        attachments: mail.attachments.map((a) => ({
          filename: a.filename,
          contentType: a.contentType,
          content: a.content,
        })),
      });
    },
    close: () => transport.close(),
  };
}
