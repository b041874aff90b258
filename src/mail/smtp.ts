import nodemailer from 'nodemailer';
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

/** SMTP through nodemailer, at `url` (smtp://user:pass@host:587, smtps://… for TLS from the start). */
export function smtpTransport(url: string): MailTransport {
  // Every wait is bounded, well inside a claimed message's lease.
  const transport = nodemailer.createTransport({ url, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 });
  return {
    send: async (mail) => {
      await transport.sendMail({
        ...mail,
        attachments: mail.attachments.map((a) => ({ filename: a.filename, contentType: a.contentType, content: a.content })),
      });
    },
    close: () => transport.close(),
  };
}
