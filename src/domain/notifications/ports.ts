import type { Page, PageRequest } from '../shared/pagination.ts';
import type { DoctorFeedVisit, FeedOwner, FeedVisit } from './feed.ts';
import type { Message, MessageKind } from './message.ts';

/** Messages written in the transaction of their event. */
export interface Outbox {
  /** Stores the message to be sent; one already stored under its dedupe key stays as it is. */
  enqueue(message: Message): Promise<void>;
  /** Withdraws the appointment's messages of `kinds` not sent yet (a cancelled visit's reminder). */
  withdraw(appointmentId: number, kinds: MessageKind[]): Promise<void>;
}

export type ActionLinkKind = 'verify_email' | 'cancel_appointment';

/** What an action link is for. */
export interface ActionLink {
  userId: number | null;
  appointmentId: number | null;
  email: string | null;
}

/**
 * One-time links in messages besides password resets and waitlist offers. A link is prepared with its message and
 * gets its token only when the message is sent; only the token's digest is kept.
 */
export interface LinkTokens {
  /** A link that works once, until `expiresAt`, after its message's sender minted its token; answers its id for the message. */
  prepare(link: ActionLink & { kind: ActionLinkKind; expiresAt: Date }): Promise<number>;
  /** Uses the token up and answers what it was for, if it is unused and unexpired. */
  use(kind: ActionLinkKind, token: string, now: Date): Promise<ActionLink | undefined>;
  /** What the token is for, without using it (a confirmation page shows the visit first). */
  peek(kind: ActionLinkKind, token: string, now: Date): Promise<ActionLink | undefined>;
}

/** What messages need of the clinic and of their deps, alongside the outbox. */
export interface Notifying {
  outbox: Outbox;
  links: LinkTokens;
}

export const MESSAGE_STATUSES = ['pending', 'sending', 'sent', 'not_sent', 'dead', 'cancelled', 'skipped'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/** A message as the admin's Messages screen shows it: everything but its link's token. */
export interface MessageRow {
  id: number;
  kind: MessageKind;
  recipient: string;
  subject: string;
  status: MessageStatus;
  attempts: number;
  sendAfter: Date;
  lastError: string | null;
  sentAt: Date | null;
  createdAt: Date;
  text: string;
  attachments: string[];
}

export interface MessageLog {
  list(filter: { status?: MessageStatus; q?: string }, page: PageRequest): Promise<Page<MessageRow>>;
}

/** Private calendar addresses, one per user; only each token's digest is kept. */
export interface CalendarFeedStore {
  /** A new token for the user's feed; the one they had stops working. */
  replace(userId: number, at: Date): Promise<string>;
  /** Turns the user's feed off; false when they had none. */
  remove(userId: number): Promise<boolean>;
  find(userId: number): Promise<{ createdAt: Date } | undefined>;
  /** Whose feed `token` opens, if its owner is an active doctor or patient. */
  ownerOf(token: string): Promise<FeedOwner | undefined>;
  /** The doctor's appointments from `from` to `to` (clinic dates, both included), in time order. */
  doctorVisits(doctorId: number, from: string, to: string): Promise<DoctorFeedVisit[]>;
  patientVisits(patientId: number, from: string, to: string): Promise<FeedVisit[]>;
}
