import type { AuditLog } from '../audit/audit.ts';
import type { Hl7Outbox } from '../notifications/hl7-events.ts';
import type { Clinic } from '../notifications/message.ts';
import type { Notifying } from '../notifications/ports.ts';
import type { RecordStore } from '../records/ports.ts';
import type { PatientProfile } from '../records/records.ts';
import type { Actor, Gender } from '../shared/actor.ts';
import type { Clock } from '../shared/clock.ts';
import type { Page, PageRequest } from '../shared/pagination.ts';
import type { DeskPatientJson, PatientRow, PossibleDuplicate } from './patients-shapes.ts';
import type { PatientVisit } from './visits.ts';

export interface ProfileFields {
  name: string;
  /** None only for a patient registered at the desk without one, until staff add one. */
  email: string | null;
  phone: string;
  birthdate: string;
  gender: Gender;
  /** E-mail reminders before visits; transactional messages go whatever this says. */
  reminders: boolean;
}

/** What a new patient is checked against: either part may be missing, never both. */
export interface DuplicateQuery {
  nameAndBirthdate?: { name: string; birthdate: string };
  phoneDigits?: string;
}

/** Every registered patient, as the admin and the patient themselves see them. */
export interface PatientDirectory {
  /** Searched by name, email or phone. */
  list(req: PageRequest): Promise<Page<PatientRow>>;
  /** One patient's row of the list, with the address staff entered that waits for the patient's confirmation. */
  card(id: number): Promise<DeskPatientJson | undefined>;
  find(id: number): Promise<
    | (PatientProfile & {
        profileImageId: number | null;
        reminders: boolean;
        emailVerified: boolean;
        pendingEmail: string | null;
      })
    | undefined
  >;
  /**
   * Changes the account and patient row together; a taken email is a conflict `email_taken`. A new address is
   * unverified until its link is followed, and one waiting for confirmation is dropped: the patient chose another.
   */
  update(id: number, fields: ProfileFields): Promise<void>;
  /**
   * Keeps an address staff entered aside, waiting for the patient's confirmation, in place of any waiting before;
   * an address another account signs in with or waits for is a conflict `email_taken`.
   */
  requestEmailChange(id: number, email: string): Promise<void>;
  /** Up to `limit` patients of the same name (case and spacing aside) and birthdate, or the same phone digits, by id. */
  possibleDuplicates(query: DuplicateQuery, limit: number): Promise<PossibleDuplicate[]>;
}

/** The patient's own recorded visits, newest first, each with its bill. */
export interface PatientVisitStore {
  listForPatient(patientId: number): Promise<PatientVisit[]>;
}

export interface PatientsStores extends Notifying {
  patients: PatientDirectory;
  visits: PatientVisitStore;
  records: Pick<RecordStore, 'listForPatient'>;
  audit: AuditLog;
  /** ADT^A08 to the receivers that take it, when a patient's details change. */
  hl7: Hl7Outbox;
}

export interface PatientsDeps extends PatientsStores {
  transaction<T>(fn: (tx: PatientsStores) => Promise<T>): Promise<T>;
  /** The actor's current password, or 422 naming `current_password` (the auth module's check). */
  confirmPassword(actor: Actor, password: string): Promise<void>;
  clock: Clock;
  timeZone: string;
  clinic: Clinic;
}
