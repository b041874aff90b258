import type { AuditLog } from '../audit/audit.ts';
import type { CareTeam } from '../care/ports.ts';
import type { Units } from '../lab/units.ts';
import type { Clinic } from '../notifications/message.ts';
import type { Outbox } from '../notifications/ports.ts';
import type { Clock } from '../shared/clock.ts';
import type { FluidKind, ShiftHours } from './fluid-balance.ts';
import type { MonitoringFrequency, News2Parameter, News2Risk, SpO2Scale } from './news2.ts';
import type { Measurement } from './vital-signs.ts';

export type TemperatureUnit = 'Cel' | '[degF]';

/** Where a set is taken: a stay (on a ward) or a visit. */
export type VitalsSource = { kind: 'stay'; admissionId: number } | { kind: 'visit'; appointmentId: number };

export interface SourceOfVitals {
  patientId: number;
  patientName: string;
  /** yyyy-MM-dd, as the printed temperature chart shows it; null when not given. */
  patientBirthDate: string | null;
  /** The patient's doctor, whom a medium or high score is e-mailed to: the stay's admitting doctor, the visit's doctor. */
  doctor: { id: number; name: string; userId: number; email: string | null };
  /** A stay's: its ward and the SpO2 scale a doctor set for it (1 when none); open while the patient is in a bed. */
  stay?: { departmentId: number; scale: SpO2Scale; open: boolean };
}

export interface StoredNews2 {
  total: number;
  scale: SpO2Scale;
  risk: News2Risk;
  frequency: MonitoringFrequency;
  parameters: Record<News2Parameter, number>;
  nextDueAt: Date;
}

export interface VitalSet {
  id: number;
  patient: { id: number; name: string };
  admissionId: number | null;
  appointmentId: number | null;
  effectiveAt: Date;
  recordedAt: Date;
  recordedBy: { id: number; name: string };
  version: number;
  measurements: Measurement[];
  news2: StoredNews2 | null;
}

export interface NewVitalSet {
  patientId: number;
  source: VitalsSource;
  effectiveAt: Date;
  recordedAt: Date;
  recordedBy: number;
  idempotencyKey: string | null;
  measurements: Measurement[];
  news2: StoredNews2 | null;
}

export interface FluidEventRow {
  id: number;
  kind: FluidKind;
  route: string;
  volumeMl: number;
  effectiveAt: Date;
  recordedBy: { id: number; name: string };
}

export interface NursingNote {
  id: number;
  body: string;
  writtenAt: Date;
  writtenBy: { id: number; name: string; role: string };
  corrects: number | null;
}

export interface News2Alert {
  id: number;
  setId: number;
  admissionId: number;
  patient: { id: number; name: string };
  bed: { id: number; label: string; room: string; ward: string };
  total: number;
  risk: 'medium' | 'high';
  raisedAt: Date;
}

export interface VitalsStore {
  /** The patient and doctor of a stay or visit (a cancelled one is none). */
  sourceOf(source: VitalsSource): Promise<SourceOfVitals | undefined>;
  /**
   * Stores the set, an observation per measurement (each at version 1) and the set's first version, in one go; a key
   * this user already sent answers the set stored then, `created` false.
   */
  recordSet(set: NewVitalSet): Promise<{ id: number; created: boolean }>;
  findSet(id: number): Promise<VitalSet | undefined>;
  /** The set's current version, locked for a correction. */
  lockSet(id: number): Promise<{ version: number; patientId: number; admissionId: number | null } | undefined>;
  /** A new version of the set: each changed or added value a new version of its observation, the reason kept. */
  correctSet(correction: {
    id: number;
    version: number;
    measurements: Measurement[];
    news2: StoredNews2 | null;
    recordedAt: Date;
    recordedBy: number;
    reason: string;
  }): Promise<void>;
  setsOfStay(admissionId: number): Promise<VitalSet[]>;
  setScale(admissionId: number, scale: SpO2Scale, doctorId: number, at: Date): Promise<void>;
  /** Raises the alert of a set's version once; false when it was already raised. */
  raiseAlert(alert: {
    setId: number;
    version: number;
    admissionId: number;
    total: number;
    risk: 'medium' | 'high';
    raisedAt: Date;
  }): Promise<boolean>;
  /** The open stays' alerts still standing (the stay's latest set is medium or high) that doctor `doctorId` cares for. */
  alertsFor(doctorId: number): Promise<News2Alert[]>;
  addFluid(event: {
    admissionId: number;
    patientId: number;
    kind: FluidKind;
    route: string;
    volumeMl: number;
    effectiveAt: Date;
    recordedAt: Date;
    recordedBy: number;
    idempotencyKey: string | null;
  }): Promise<number>;
  fluidsOfStay(admissionId: number): Promise<FluidEventRow[]>;
  addNote(note: {
    admissionId: number;
    patientId: number;
    body: string;
    writtenAt: Date;
    writtenBy: number;
    corrects: number | null;
  }): Promise<number>;
  notesOfStay(admissionId: number): Promise<NursingNote[]>;
}

export interface VitalsStores {
  vitals: VitalsStore;
  careTeam: CareTeam;
  audit: AuditLog;
  outbox: Outbox;
}

export interface VitalsDeps extends VitalsStores {
  units: Units;
  clock: Clock;
  timeZone: string;
  clinic: Clinic;
  temperatureUnit: TemperatureUnit;
  shiftHours: ShiftHours;
  transaction<T>(fn: (tx: VitalsStores & { clock: Clock }) => Promise<T>): Promise<T>;
}
