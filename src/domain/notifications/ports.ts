import type { Page, PageRequest } from '../shared/pagination.ts';
import type { DoctorFeedVisit, FeedOwner, FeedVisit } from './feed.ts';
import type { Attachment, Message, MessageKind } from './message.ts';

/** Messages written in the transaction of their event. */
export interface Outbox {
  /** Stores the messages to be sent, in one statement; one already stored under its dedupe key stays as it is. */
  enqueue(...messages: Message[]): Promise<void>;
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

/** A message as a worker sends it. */
export interface ClaimedMessage {
  id: number;
  kind: MessageKind;
  to: string;
  subject: string;
  text: string;
  html: string;
  attachments: Attachment[];
  /** What the message's link is for (see Message.linkId); its token is minted by `mintLink`. */
  linkId: number | null;
  /** This attempt included. */
  attempts: number;
}

/**
 * What a worker does with the outbox: claim what is due under its own id, keep its leases alive while it sends,
 * and record how each attempt went. Every change but `sent` applies only while `holder` still holds the message's lease.
 */
export interface OutboxQueue {
  /**
   * Up to `limit` due messages, each leased to `holder` until `leaseUntil`: pending ones whose time has come, and
   * ones whose sender's lease ran out (a worker that died mid-send), but none of `sending`, which `holder` is still
   * sending itself. SKIP LOCKED lets other workers take others.
   */
  claim(holder: string, now: Date, leaseUntil: Date, limit: number, sending?: number[]): Promise<ClaimedMessage[]>;
  /** Extends the leases `holder` still holds among `ids` to `leaseUntil`; answers those ids. */
  renew(holder: string, ids: number[], leaseUntil: Date): Promise<number[]>;
  /** A reminder still wanted: its visit still scheduled, the patient's reminders on and the address verified. */
  reminderWanted(id: number): Promise<boolean>;
  /** A critical result's escalation still wanted: nobody acknowledged the result yet. */
  escalationWanted(id: number): Promise<boolean>;
  /** Records a delivery, whoever holds the lease; answers who held it then, or undefined when the message was already final. */
  sent(id: number, at: Date): Promise<{ heldBy: string | null } | undefined>;
  /** Due again at `at`; false when `holder` no longer holds the lease, and nothing changed. */
  retry(holder: string, id: number, at: Date, error: string): Promise<boolean>;
  /**
   * Gives the message's link the token whose digest is `tokenHash`, in the row its consumer looks it up in, while
   * `holder` holds the lease: the digest replaces an earlier attempt's, so one link per message works. `spent` when
   * the link can no longer work (used, replaced by a newer reset, the offer closed, expired), `lost` with the lease.
   */
  mintLink(holder: string, id: number, tokenHash: string, now: Date): Promise<'minted' | 'spent' | 'lost'>;
  /**
   * Given up for good: dead (failed), not_sent (no mail server), skipped (no longer wanted). A dead message's
   * link stops working: its token went nowhere. False as for `retry`.
   */
  close(holder: string, id: number, status: 'dead' | 'not_sent' | 'skipped', reason: string): Promise<boolean>;
}
