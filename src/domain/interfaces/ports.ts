import type { LabDeps } from '../lab/ports.ts';
import type { ObservationValue } from '../lab/reports.ts';

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
