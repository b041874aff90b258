import type { AuditEntry } from '../audit/audit.ts';
import type { Actor } from '../shared/actor.ts';
import { addDays, clinicDateTime, clinicInstant } from '../shared/clock.ts';

/**
 * Care-team access (docs/design.md §8): a doctor reads and writes a patient's clinical data only while in the
 * patient's care team — a visit or an order for them, the admitting or attending doctor of a stay, a doctor of the
 * ward's department while the patient is in it — or holding a break-the-glass access, opened with a stated reason,
 * for the rest of the clinic's day. Which doctors those are is one query behind the `CareTeam` port
 * (src/db/care.pg.ts); this file is the rule around it.
 */

/**
 * How staff reach a patient's record: a doctor as one of their care team or through a break-the-glass access and its
 * reason; a nurse through the ward, the patient lying in a bed of the nurse's department.
 */
export type Reach = { via: 'care_team' } | { via: 'break_glass'; reason: string } | { via: 'ward' };

/** The ties that put a doctor in a patient's care team, as the `CareTeam` port's query tests them. */
export const CARE_TEAM_TIES = {
  visit: 'an appointment with the patient that is not cancelled',
  order: 'an admission of the patient they requested (the admitting doctor), not cancelled',
  attending: 'a stay of the patient whose discharge they ordered and summarised',
  ward: "a doctor of the department of the ward the patient's bed is in, while they are in it",
} as const;

/** Whom the care team binds: doctors. Admins read every record (each read audited); reception never receives clinical content; a patient reads their own. */
export const boundByCareTeam = (actor: Actor): actor is Actor & { doctorId: number } =>
  actor.role === 'doctor' && actor.doctorId !== undefined;

/**
 * Whom the ward binds: a nurse reaches a patient while the patient occupies a bed (admitted, or their discharge
 * ordered) in a room of the nurse's department, and no one else; the `CareTeam` port's `onWard` asks it.
 */
export const boundByWard = (actor: Actor): boolean => actor.role === 'nurse';

export const NURSE_REACH = "an occupied bed in a room of the nurse's department" as const;

/** The one rule: the actor is refused a patient's clinical data when the care team or the ward binds them and they do not reach the patient. */
export const refusedByCareTeam = (actor: Actor, reach: Reach | undefined): boolean =>
  (boundByCareTeam(actor) || boundByWard(actor)) && reach === undefined;

/** When a break-the-glass access opened at `now` lapses: the end of that day in the clinic's zone. */
export function breakGlassEnds(now: Date, timeZone: string): Date {
  return clinicInstant(addDays(clinicDateTime(now, timeZone).date, 1), '00:00', timeZone);
}

export const MAX_BREAK_GLASS_REASON = 1000;

/** The reason a doctor gives for opening a record outside their care team: required; 422 naming `reason`. */
/** One clinical read of a patient's record, as its audit row names it. */
export interface ClinicalRead {
  patientId: number;
  action: string;
  entity: string;
  entityId?: number | string | null;
  details?: Record<string, unknown>;
}

/**
 * The audit rows of clinical reads by `actor`, one per patient read, to be written in one statement; a read through
 * a break-the-glass access carries its reason, which the patient is shown.
 */
export function clinicalReadEntries(
  actor: Actor,
  reads: readonly ClinicalRead[],
  reach: ReadonlyMap<number, Reach> = new Map(),
): AuditEntry[] {
  return reads.map((read) => {
    const via = reach.get(read.patientId);
    const reason = via?.via === 'break_glass' ? { break_glass_reason: via.reason } : {};
    const details = { ...read.details, ...reason };
    return {
      actor,
      action: read.action,
      entity: read.entity,
      entityId: read.entityId ?? null,
      patientId: read.patientId,
      requestId: actor.requestId,
      ...(Object.keys(details).length > 0 ? { details } : {}),
    };
  });
}

/** The audit actions that open a patient's record: what *Who opened my record* lists, when staff did them. */
export const RECORD_OPENINGS = [
  'read',
  'read_records',
  'read_summary',
  'read_everything',
  'export',
  'list_read',
  'break_glass',
] as const;
/** The roles whose reads are clinical: reception never receives clinical content, so its reads open no record. */
export const OPENING_ROLES = ['doctor', 'nurse', 'admin'] as const;
export type RecordOpeningAction = (typeof RECORD_OPENINGS)[number];
export type OpeningRole = (typeof OPENING_ROLES)[number];

/** What an opening of a record was, in the words the patient reads. */
export function whatWasOpened(action: string, entity: string): string {
  if (action === 'break_glass') return 'Opened your record outside your care team';
  if (action === 'read_everything' || action === 'export') return 'Your whole record (FHIR)';
  if (entity.startsWith('fhir_')) return `Your ${entity.slice('fhir_'.length)} record (FHIR)`;
  if (action === 'read_summary') return 'A discharge summary';
  if (entity === 'admission')
    return action === 'list_read' ? 'A hospital stay, in the admissions list' : 'A hospital stay';
  if (entity === 'patient' || entity === 'medical_record') return 'Your medical records';
  return entity.replace(/_/g, ' ');
}
