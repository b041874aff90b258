import type { AuditLog } from '../audit/audit.ts';
import type { BillStore } from '../billing/ports.ts';
import type { CareTeam } from '../care/ports.ts';
import type { Units } from '../lab/units.ts';
import type { Clock } from '../shared/clock.ts';
import type { Page, PageRequest } from '../shared/pagination.ts';
import type {
  Allergy,
  AllergyOverride,
  AllergyStatus,
  AllergySubstance,
  AllergyType,
  AllergySeverity,
} from './allergies.ts';
import type { FormularyEntry, NewFormularyEntry, Route } from './formulary.ts';
import type { DoseOutcome, DoseStatus, MedicationOrderStatus } from './mar.ts';
import type { Frequency } from './prescriptions.ts';

export interface FormularyStore {
  list(filter: { includeInactive: boolean }, page: PageRequest): Promise<Page<FormularyEntry>>;
  find(id: number): Promise<FormularyEntry | undefined>;
  /** A medicine of the same generic name, form and strength already listed is a conflict `medicine_exists`. */
  create(entry: NewFormularyEntry): Promise<FormularyEntry>;
  update(id: number, entry: NewFormularyEntry & { active: boolean }, at: Date): Promise<FormularyEntry | undefined>;
  /** Each entry added, or its route, unit and price updated when the medicine is listed: one statement. */
  upsert(entries: readonly NewFormularyEntry[], at: Date): Promise<{ created: number; updated: number }>;
}

export interface NewAllergy {
  patientId: number;
  substance: AllergySubstance;
  type: AllergyType;
  reaction: string | null;
  severity: AllergySeverity | null;
  recordedBy: number;
  recordedAt: Date;
}

export interface AllergyStore {
  /** The patient's allergies, every status, newest first; undefined when there is no such patient. */
  ofPatient(patientId: number): Promise<Allergy[] | undefined>;
  /**
   * The patient's row locked until the transaction ends, so two clinicians recording at once are taken in turn
   * ("no known allergies" beside a new allergy is decided under it); false when there is no such patient.
   */
  lockPatient(patientId: number): Promise<boolean>;
  add(allergy: NewAllergy): Promise<Allergy>;
  find(id: number): Promise<Allergy | undefined>;
  setStatus(id: number, status: AllergyStatus, at: Date): Promise<Allergy | undefined>;
  /** A standing "no known allergies" is set inactive when an allergy is recorded. */
  retireNoneKnown(patientId: number, at: Date): Promise<void>;
}

/** Where a medication request is written from, as the use cases check it. */
export type RequestSource = { kind: 'visit'; appointmentId: number } | { kind: 'stay'; admissionId: number };

export interface RequestOrigin {
  patientId: number;
  /** A visit's appointment status, or a stay's admission status. */
  status: string;
}

export interface NewMedicationRequest {
  patientId: number;
  doctorId: number;
  source: RequestSource;
  medicineId: number;
  dose: { amount: number; unit: string };
  route: Route;
  frequency: Frequency;
  durationDays: number | null;
  quantity: number | null;
  instructions: string;
  continueOnDischarge: boolean;
  allergyOverride: AllergyOverride | null;
  startDate: string;
  startsAt: Date;
  endsAt: Date | null;
  requestedAt: Date;
}

/** A medication request with its medicine, prescriber and patient: what every view is cut from. */
export interface MedicationRequestView extends Omit<NewMedicationRequest, 'patientId' | 'doctorId' | 'medicineId'> {
  id: number;
  patient: { id: number; name: string; birthDate: string | null };
  doctor: { id: number; name: string };
  medicine: FormularyEntry;
  status: MedicationOrderStatus;
  discontinuedAt: Date | null;
  discontinuedReason: string | null;
}

export interface Dose {
  id: number;
  requestId: number;
  dueAt: Date | null;
  status: DoseStatus;
  givenAt: Date | null;
  amount: number | null;
  unit: string | null;
  reason: string | null;
  recordedBy: string | null;
  recordedAt: Date | null;
}

/** A request as the MAR's writes read it under its row lock. */
export interface LockedRequest {
  id: number;
  patientId: number;
  admissionId: number | null;
  status: MedicationOrderStatus;
  frequency: Frequency;
  dose: { amount: number; unit: string };
  medicine: FormularyEntry;
}

/** One patient of a ward on its MAR: their stay, bed and orders with the doses in the window. */
export interface MarPatient {
  admissionId: number;
  patient: { id: number; name: string };
  bed: string;
  orders: (MedicationRequestView & { doses: Dose[] })[];
}

export interface MedicationStore {
  /** The patient and status of the visit or stay; undefined when there is none. */
  originOf(source: RequestSource): Promise<RequestOrigin | undefined>;
  create(request: NewMedicationRequest): Promise<number>;
  /** The scheduled doses of an inpatient order, in one statement. */
  schedule(requestId: number, dueAts: readonly Date[]): Promise<void>;
  find(id: number): Promise<MedicationRequestView | undefined>;
  doses(requestId: number): Promise<Dose[]>;
  /** The request locked until the transaction ends, read after the lock. */
  lock(id: number): Promise<LockedRequest | undefined>;
  /** Discontinued at `at`: its doses still due after `at` cancelled. Answers how many were cancelled. */
  discontinue(id: number, by: number, reason: string, at: Date): Promise<number>;
  /** The dose of a request, as it is now. */
  dose(doseId: number): Promise<Dose | undefined>;
  /** The request a dose belongs to; undefined when there is no such dose. */
  requestOfDose(doseId: number): Promise<number | undefined>;
  /**
   * Records a due dose; false when it is no longer due (another nurse recorded it first): the database decides,
   * by a conditional update.
   */
  recordDose(
    doseId: number,
    record: {
      outcome: DoseOutcome;
      givenAt: Date | null;
      amount: number | null;
      unit: string | null;
      reason: string | null;
    },
    by: number,
    at: Date,
  ): Promise<boolean>;
  /** A dose given as needed: a row of its own. */
  addGiven(requestId: number, givenAt: Date, amount: number, unit: string, by: number, at: Date): Promise<number>;
  givenTimes(requestId: number): Promise<Date[]>;
  setDoseBill(doseId: number, billId: number): Promise<void>;
  /** A patient's requests, newest first; `activeOnly` keeps those not discontinued nor past their end. */
  ofPatient(
    patientId: number,
    filter: { activeOnly: boolean; today: string },
    page: PageRequest,
  ): Promise<Page<MedicationRequestView>>;
  /** The ward's current patients with their inpatient orders and the doses due or recorded from `from` until `to`. */
  wardMar(
    departmentId: number,
    from: Date,
    to: Date,
  ): Promise<{ ward: { id: number; name: string } | undefined; patients: MarPatient[] }>;
}

export interface MedicinesStores {
  formulary: FormularyStore;
  allergies: AllergyStore;
  medications: MedicationStore;
  bills: BillStore;
  audit: AuditLog;
  careTeam: CareTeam;
}

export interface MedicinesDeps extends MedicinesStores {
  clock: Clock;
  timeZone: string;
  units: Units;
  /** Whether a dose given adds a bill line at the formulary's price (the clinic's `BILL_MEDICINES`). */
  billMedicines: boolean;
  clinic: { name: string; address: string; phone: string };
  transaction<T>(fn: (tx: MedicinesDeps) => Promise<T>): Promise<T>;
}
