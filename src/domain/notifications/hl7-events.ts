/**
 * The HL7 v2 events Medora reports to the receivers an admin configures, each queued in the transaction of its
 * change (the HL7 outbox, beside the e-mail outbox): ADT for admissions and patients, OML^O21 for lab orders.
 */
export const HL7_EVENTS = ['A01', 'A02', 'A03', 'A04', 'A08', 'A11', 'A12', 'A13', 'O21'] as const;
export type Hl7EventCode = (typeof HL7_EVENTS)[number];

/** What each event says, for the admin's screen and the CLI. */
export const HL7_EVENT_WORDS: Record<Hl7EventCode, string> = {
  A01: 'ADT^A01 admit',
  A02: 'ADT^A02 transfer',
  A03: 'ADT^A03 discharge',
  A04: 'ADT^A04 register a patient',
  A08: "ADT^A08 update a patient's details",
  A11: 'ADT^A11 cancel an admission',
  A12: 'ADT^A12 cancel a transfer',
  A13: 'ADT^A13 cancel a discharge',
  O21: 'OML^O21 a lab order placed or cancelled',
};

/**
 * A change to report. A12 and A13 are receivable by a receiver's choice but never sent: Medora has no undo of a
 * transfer (the patient is transferred back, an A02) nor of a discharge (a new stay is an A01).
 */
export type Hl7Event =
  | { event: 'A01' | 'A02' | 'A03' | 'A11'; admissionId: number }
  | { event: 'A04' | 'A08'; patientId: number }
  | { event: 'O21'; orderId: number; control: 'NW' | 'CA' };

/** The HL7 outbox as the modules whose changes it reports write to it, in their own transactions. */
export interface Hl7Outbox {
  /** Queues the event's message for every active receiver that takes it, as the data are now; none takes it: nothing. */
  queue(event: Hl7Event, at: Date): Promise<void>;
}
