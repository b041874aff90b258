import type { Hl7Outbox } from '../notifications/hl7-events.ts';
import type { AuditLog } from '../audit/audit.ts';
import type { BillStore } from '../billing/ports.ts';
import type { CareTeam } from '../care/ports.ts';
import type { Clock } from '../shared/clock.ts';
import type { Page, PageRequest } from '../shared/pagination.ts';
import type { Segment, WardBed } from './census.ts';
import type { RatedSegment } from './charges.ts';
import type { NEWS2_RISKS } from './inpatient-shapes.ts';
import type {
  Admission,
  AdmissionDetail,
  AdmissionRequest,
  AdmissionStatus,
  Bed,
  ChargeLine,
  Housekeeping,
  RoomClass,
  StayCharge,
  SummaryFields,
} from './inpatient.ts';

/** A room of a ward on the bed board, with its class and its beds in service. */
export interface BoardRoom {
  id: number;
  name: string;
  ward: { id: number; name: string };
  bedClass: string | null;
  nightlyRateCents: number | null;
  beds: (Bed & { news2: BedNews2 | null })[];
}

/** The latest NEWS2 of an occupied bed's stay (the vitals module's sets): its score, when the next set is due, and whether it alerted. */
export interface BedNews2 {
  total: number;
  risk: (typeof NEWS2_RISKS)[number];
  takenAt: Date;
  nextDueAt: Date;
  alert: boolean;
}

export interface BedStore {
  /** A new bed; a label taken in the room is a conflict `label_taken`, a missing room undefined. */
  create(roomId: number, label: string, at: Date): Promise<Bed | undefined>;
  rename(id: number, label: string): Promise<Bed | undefined>;
  find(id: number): Promise<Bed | undefined>;
  /** The bed locked until the transaction ends, read after the lock so its holder is the latest committed. */
  lock(id: number): Promise<Bed | undefined>;
  retire(id: number, at: Date): Promise<void>;
  setHousekeeping(id: number, state: Housekeeping, reason: string | null, at: Date): Promise<void>;
  setRoomClass(roomId: number, bedClass: string, nightlyRateCents: number, at: Date): Promise<RoomClass | undefined>;
  /** The nightly rate of the bed's room now (0 for a room with no class). */
  rateOf(bedId: number): Promise<number>;
  /** Every room that has a class or a bed in service, with its beds, of one ward or all. */
  board(departmentId: number | undefined): Promise<BoardRoom[]>;
  /** Per stay, its medication doses still due more than an hour before `at` (the MAR's late doses). */
  lateDoses(admissionIds: readonly number[], at: Date): Promise<Map<number, number>>;
}

export interface AdmissionStore {
  /** A second open admission for the patient is a conflict `already_admitted`; a missing reference `invalid`. */
  create(request: AdmissionRequest, doctorId: number, at: Date): Promise<number>;
  find(id: number): Promise<AdmissionDetail | undefined>;
  /** The admission locked until the transaction ends. */
  lock(id: number): Promise<Admission | undefined>;
  /** The admission, locked, unless another transaction holds it (which is then working on it): undefined. */
  lockIfFree(id: number): Promise<Admission | undefined>;
  list(
    filter: { statuses: readonly AdmissionStatus[]; departmentId?: number },
    page: PageRequest,
  ): Promise<Page<Admission>>;
  listForPatient(patientId: number): Promise<AdmissionDetail[]>;
  /** The bed is held for the admission; another holder is a conflict `bed_taken` (the database's index decides). */
  reserve(id: number, bedId: number, at: Date): Promise<void>;
  /** Admitted into the bed: it holds the bed and its first stay in a bed begins at `at` with `rateCents`. */
  admit(id: number, bedId: number, rateCents: number, at: Date): Promise<void>;
  /** The current bed's stay ends and the next begins at `at`, in one statement pair of one transaction. */
  transfer(id: number, bedId: number, rateCents: number, at: Date): Promise<void>;
  /** Back to waiting, its beds' stays removed as if it had never been admitted. */
  undo(id: number): Promise<void>;
  orderDischarge(id: number, summary: SummaryFields, doctorId: number, at: Date): Promise<void>;
  discharge(id: number, at: Date): Promise<void>;
  cancel(id: number, at: Date): Promise<void>;
  /** Each bed the stay occupied with its rate, in order. */
  segments(id: number): Promise<RatedSegment[]>;
  /** Stays in a bed now. */
  inBed(): Promise<number[]>;
  /**
   * The stay's medicine orders marked to continue after discharge and not discontinued, oldest first, each in the
   * prescription's own words (the medicines module words them).
   */
  medicinesToContinue(id: number, at: Date): Promise<ContinuedMedicine[]>;
}

export interface ChargeStore {
  /** The last night billed for the admission, if any. */
  billedThrough(admissionId: number): Promise<string | null>;
  record(charge: {
    admissionId: number;
    billingId: number;
    kind: StayCharge['kind'];
    firstNight: string;
    lastNight: string;
    lines: ChargeLine[];
  }): Promise<void>;
}

export interface CensusQueries {
  /** Every bed stay of every admission that was in a bed at some time in [from, until), whole. */
  segments(from: Date, until: Date, departmentId: number | undefined): Promise<Segment[]>;
  /** Every bed (retired too) of one ward or all. */
  beds(departmentId: number | undefined): Promise<WardBed[]>;
}

export interface InpatientDeps {
  beds: BedStore;
  admissions: AdmissionStore;
  charges: ChargeStore;
  census: CensusQueries;
  bills: BillStore;
  audit: AuditLog;
  /** Whose care team a doctor is in: asked before every clinical read and write (domain/care/guard.ts). */
  careTeam: CareTeam;
  /** Admissions, transfers and discharges reported to the HL7 receivers, in the change's transaction. */
  hl7: Hl7Outbox;
  clock: Clock;
  timeZone: string;
  /** All or nothing: `fn` gets the same ports bound to one transaction. */
  transaction<T>(fn: (tx: InpatientDeps) => Promise<T>): Promise<T>;
}

/** A ward medicine the discharge summary lists to continue at home. */
export interface ContinuedMedicine {
  orderId: number;
  medicine: string;
  words: string;
}
