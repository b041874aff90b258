/** An e-mail as the outbox keeps it: rendered, addressed, and due at `sendAfter`. */
export const MESSAGE_KINDS = [
  'booking_confirmation',
  'reschedule',
  'cancellation',
  'reminder',
  'bill_issued',
  'payment_receipt',
  'password_reset',
  'email_verification',
  'email_change_notice',
  'registration_attempt',
  'waitlist_offer',
  'news2_alert',
  'critical_result',
  'critical_result_escalation',
] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];

export interface Attachment {
  filename: string;
  contentType: string;
  content: string;
}

export interface Message {
  kind: MessageKind;
  /** One row per (event, recipient, kind): writing the same message again changes nothing. */
  dedupeKey: string;
  to: string;
  userId: number | null;
  appointmentId: number | null;
  subject: string;
  text: string;
  html: string;
  attachments: Attachment[];
  sendAfter: Date;
  /**
   * What the message's link is for: the row its consumer looks the token up in (an action link, a password reset,
   * a waitlist offer, by the message's kind). No token exists until the message is sent: the sender mints one,
   * keeps its digest in that row and puts the link in place of LINK_PLACEHOLDER.
   */
  linkId?: number;
  /** The critical lab result an escalation is about: it is not sent once the result was acknowledged. */
  labAlertId?: number;
}

/** Where a message's link goes in its bodies; the sender fills it in, so stored bodies never hold a token. */
export const LINK_PLACEHOLDER = '{{link}}';

/** What every message is signed with, and the zone its times are in. */
export interface Clinic {
  name: string;
  timeZone: string;
  /** How messages spell dates and times (CLINIC_LOCALE). */
  locale: string;
  /** The address messages come from, which calendar invitations name as their organizer. */
  mailFrom: string;
}

export interface Body {
  greeting: string;
  paragraphs: string[];
  /** A button in HTML, an address on a line of its own in text. */
  action?: { label: string };
}

/** A message's plain-text and HTML bodies, signed with the clinic's name. */
export function render(clinic: Clinic, body: Body): { text: string; html: string } {
  const text = [
    body.greeting,
    ...body.paragraphs,
    ...(body.action ? [`${body.action.label}: ${LINK_PLACEHOLDER}`] : []),
    `${clinic.name}`,
  ].join('\n\n');
  const html = [
    '<!doctype html><html><body style="font-family: system-ui, sans-serif; color: #1b2a35; line-height: 1.5">',
    `<p>${escapeHtml(body.greeting)}</p>`,
    ...body.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`),
    ...(body.action
      ? [
          `<p><a href="${LINK_PLACEHOLDER}" style="background: #0b6e77; color: #fff; padding: 0.6em 1.2em; border-radius: 6px; text-decoration: none">${escapeHtml(body.action.label)}</a></p>`,
        ]
      : []),
    `<p style="color: #52626e">${escapeHtml(clinic.name)}</p>`,
    '</body></html>',
  ].join('\n');
  return { text, html };
}

export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
