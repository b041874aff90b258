import type { Clinic } from '../notifications/message.ts';
import type { Outbox } from '../notifications/ports.ts';
import type { AuditLog } from '../audit/audit.ts';
import type { BillStore } from '../billing/ports.ts';
import type { CareTeam } from '../care/ports.ts';
import type { Clock } from '../shared/clock.ts';
import type { Page, PageRequest } from '../shared/pagination.ts';
import type { AppointmentStore } from '../scheduling/ports.ts';
import type { ClinicalContent, MedicalRecord, NewMedicalRecord, PatientCard, PatientProfile } from './records.ts';

/**
 * Appointments as recording a visit sees them: scheduling's `lock` (the row locked until the transaction ends, so
 * two submissions cannot both find it scheduled) and `find`, and the one transition records make.
 */
export interface VisitAppointmentStore extends Pick<AppointmentStore, 'lock' | 'find'> {
  markCompleted(id: number, at: Date): Promise<void>;
}

export interface RecordStore {
  /** Writes the record; its first version, by its doctor, is kept with it. */
  create(record: NewMedicalRecord): Promise<MedicalRecord>;
  /** The record with its row locked until the transaction ends, so amendments of one record take turns. */
  lock(id: number): Promise<MedicalRecord | undefined>;
  /** Makes `content` the record's current version and keeps it as the next one in its history. */
  amend(id: number, content: ClinicalContent, by: { userId: number; at: Date; reason: string }): Promise<MedicalRecord>;
  /** Every record of the patient, by any doctor, newest first. */
  listForPatient(patientId: number): Promise<MedicalRecord[]>;
}

export interface DiseaseLookup {
  exists(id: number): Promise<boolean>;
}

/** Patients as doctors see them. */
export interface DoctorPatientStore {
  /** The patients whose care team the doctor is in, or whose record they hold open by breaking the glass, at `at`. */
  list(doctorId: number, page: PageRequest, at: Date): Promise<Page<PatientCard>>;
  /** One patient's profile; whether the doctor may read it is the care team's to say (domain/care/guard.ts). */
  find(patientId: number): Promise<PatientProfile | undefined>;
}

export interface RecordsDeps {
  outbox: Outbox;
  clinic: Clinic;
  appointments: VisitAppointmentStore;
  records: RecordStore;
  diseases: DiseaseLookup;
  patients: DoctorPatientStore;
  bills: BillStore;
  audit: AuditLog;
  /** Whose care team a doctor is in: asked before every clinical read (domain/care/guard.ts). */
  careTeam: CareTeam;
  clock: Clock;
  timeZone: string;
  /** All or nothing: `fn` gets the same ports bound to one transaction. */
  transaction<T>(fn: (tx: RecordsDeps) => Promise<T>): Promise<T>;
}
