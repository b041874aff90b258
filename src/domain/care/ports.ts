import type { AuditLog } from '../audit/audit.ts';
import type { Clock } from '../shared/clock.ts';
import type { Page, PageRequest } from '../shared/pagination.ts';
import type { OpeningRole, Reach, RecordOpeningAction } from './care.ts';

/** Who is in a patient's care team (src/db/care.pg.ts: one query, the ties of `CARE_TEAM_TIES`). */
export interface CareTeam {
  /**
   * How doctor `doctorId` reaches each of `patientIds` at `at`: in the care team, or holding a break-the-glass access
   * open at `at`; a patient they do not reach (or who does not exist) is absent. One statement however many.
   */
  reach(doctorId: number, patientIds: readonly number[], at: Date): Promise<Map<number, Reach>>;
  /** Which of `patientIds` occupy a bed in a room of department `departmentId` (a nurse's ward, `NURSE_REACH`) now. */
  onWard(departmentId: number, patientIds: readonly number[]): Promise<Set<number>>;
}

/** A doctor's access to a patient's record outside the care team, until the end of the clinic's day. */
export interface BreakGlassAccess {
  id: number;
  doctor: { id: number; name: string };
  patient: { id: number; name: string };
  reason: string;
  openedAt: Date;
  expiresAt: Date;
}

export interface BreakGlassStore {
  /** Records the access; an unknown patient answers undefined. */
  open(access: {
    doctorId: number;
    patientId: number;
    reason: string;
    openedAt: Date;
    expiresAt: Date;
  }): Promise<BreakGlassAccess | undefined>;
  /** Newest first, searched by doctor's or patient's name. */
  list(page: PageRequest): Promise<Page<BreakGlassAccess>>;
}

/** One clinical read of a patient's record by staff, from the audit trail. */
export interface RecordOpening {
  id: number;
  at: Date;
  by: { name: string | null; role: OpeningRole };
  action: RecordOpeningAction;
  entity: string;
  entityId: string | null;
  reason: string | null;
}

export interface RecordOpenings {
  /** The patient's record's openings by staff (`OPENING_ROLES`, `RECORD_OPENINGS`), newest first. */
  list(patientId: number, page: PageRequest): Promise<Page<RecordOpening>>;
}

/** What every clinical read or write asks before it goes on. */
export interface CareCheck {
  careTeam: CareTeam;
  audit: AuditLog;
  clock: Clock;
}

export interface CareStores {
  careTeam: CareTeam;
  breakGlass: BreakGlassStore;
  openings: RecordOpenings;
  audit: AuditLog;
}

export interface CareDeps extends CareStores {
  clock: Clock;
  timeZone: string;
  /** All or nothing: `fn` gets the same ports bound to one transaction. */
  transaction<T>(fn: (tx: CareStores) => Promise<T>): Promise<T>;
}
