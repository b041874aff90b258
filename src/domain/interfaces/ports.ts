import type { LabDeps } from '../lab/ports.ts';
import type { ObservationValue } from '../lab/reports.ts';
import type { AuditLog } from '../audit/audit.ts';
import type { Hl7EventCode } from '../notifications/hl7-events.ts';
import type { Clock } from '../shared/clock.ts';
import type { Page, PageRequest } from '../shared/pagination.ts';
import type { OUTBOUND_STATUSES, OutboundMessageJson } from './interfaces-shapes.ts';

export type ReceivedStatus = 'processed' | 'unmatched' | 'error';

/** A received message as it is kept: what came, what became of it and the acknowledgement it was answered with. */
export interface ReceivedMessage {
  /** MSH-3^MSH-4. */
  source: string;
  /** MSH-10; null when the message has none. */
  controlId: string | null;
  messageType: string;
  message: string;
  status: ReceivedStatus;
  ackCode: 'AA' | 'AE' | 'AR';
  ack: string;
  error: string | null;
  receivedAt: Date;
}

/** A result that matched no order, for the lab's *Unmatched results*. */
export interface NewUnmatched {
  source: string;
  /** The message's MSH-10 with the result's place in it, one row per result. */
  messageId: string;
  orderNumber: string;
  codeSystem: 'loinc' | 'local';
  code: string;
  value: ObservationValue;
  effectiveAt: Date;
  receivedAt: Date;
}

/** The received messages. */
export interface Hl7Inbox {
  /**
   * Stores the message and answers its id; undefined when this sender's MSH-10 is stored already (a message
   * received twice at once waits here for the first to commit).
   */
  claim(message: ReceivedMessage): Promise<number | undefined>;
  /** Records what became of a claimed message and its acknowledgement. */
  finish(id: number, outcome: Pick<ReceivedMessage, 'status' | 'ackCode' | 'ack' | 'error'>): Promise<void>;
  /** The acknowledgement a sender's message was answered with, when it is stored. */
  ackOf(source: string, controlId: string): Promise<string | undefined>;
  /** The account results received are recorded by. */
  interfaceUser(): Promise<number>;
  addUnmatched(result: NewUnmatched): Promise<void>;
}

export interface InboundDeps extends LabDeps {
  inbox: Hl7Inbox;
  transaction<T>(fn: (tx: InboundDeps) => Promise<T>): Promise<T>;
}

export interface ReceiverFields {
  name: string;
  host: string;
  port: number;
  events: Hl7EventCode[];
}

export interface Receiver extends ReceiverFields {
  id: number;
  active: boolean;
  createdAt: Date;
  /** Pending or being sent: the queue depth. */
  queued: number;
  dead: number;
  lastSentAt: Date | null;
}

export interface OutboundMessage {
  id: number;
  receiverId: number;
  receiver: string;
  event: Hl7EventCode;
  controlId: string;
  patientId: number | null;
  status: (typeof OUTBOUND_STATUSES)[number];
  attempts: number;
  ackCode: OutboundMessageJson['ack_code'];
  ack: string | null;
  lastError: string | null;
  message: string;
  createdAt: Date;
  sentAt: Date | null;
}

export interface StoredReceived extends ReceivedMessage {
  id: number;
}

/** The receivers and both directions' messages, as an admin manages them. */
export interface InterfacesStore {
  receivers(page: PageRequest): Promise<Page<Receiver>>;
  receiver(id: number): Promise<Receiver | undefined>;
  /** 409 `name_taken` when another receiver has the name. */
  createReceiver(fields: ReceiverFields): Promise<number>;
  /** Locks the receiver's row; false when there is none. */
  lockReceiver(id: number): Promise<boolean>;
  updateReceiver(id: number, fields: ReceiverFields & { active: boolean }): Promise<void>;
  outbound(
    filter: { receiverId?: number; status?: OutboundMessage['status'] },
    page: PageRequest,
  ): Promise<Page<OutboundMessage>>;
  /** Locks an outbound message and answers it. */
  lockOutbound(id: number): Promise<OutboundMessage | undefined>;
  /** A dead message back in its receiver's queue, at its place by id, due at `at`, its attempts counted afresh. */
  requeue(id: number, at: Date): Promise<void>;
  received(filter: { status?: ReceivedStatus }, page: PageRequest): Promise<Page<StoredReceived>>;
}

export interface InterfacesDeps {
  interfaces: InterfacesStore;
  audit: AuditLog;
  clock: Clock;
  transaction<T>(fn: (tx: InterfacesDeps) => Promise<T>): Promise<T>;
}
