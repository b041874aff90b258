import type { Actor } from '../shared/actor.ts';
import { forbidden } from '../shared/errors.ts';
import type { FhirType } from './resource-def.ts';

/** Whose rows a reader sees of a type kept in patients' compartments. */
export type Scope = { kind: 'all' } | { kind: 'patient'; patientId: number } | { kind: 'doctor'; doctorId: number };

/** The clinic's directory (people, places, services, free time): every signed-in user reads it, as the booking pages do. */
const DIRECTORY: readonly FhirType[] = [
  'Practitioner',
  'PractitionerRole',
  'Organization',
  'Location',
  'HealthcareService',
  'Schedule',
  'Slot',
];
/** What a diagnosis is: the front desk never receives it (DESIGN §3). */
const CLINICAL: readonly FhirType[] = ['Condition'];

/**
 * The same rules as the rest of Medora: a patient reads their own compartment, a doctor the compartments of the
 * patients they have treated or are booked with (not their bills), reception everything but clinical content,
 * admins everything; the audit trail is the admins' alone.
 */
export function scopeFor(type: FhirType, actor: Actor): Scope {
  if (actor.role === 'admin' || DIRECTORY.includes(type)) return { kind: 'all' };
  if (type === 'AuditEvent') throw forbidden('Only admins read the audit trail');
  if (actor.role === 'reception') {
    if (CLINICAL.includes(type)) throw forbidden('The front desk does not read clinical content');
    return { kind: 'all' };
  }
  if (actor.role === 'doctor' && actor.doctorId !== undefined) {
    if (type === 'Invoice') throw forbidden('Doctors do not read bills');
    return { kind: 'doctor', doctorId: actor.doctorId };
  }
  if (actor.role === 'patient' && actor.patientId !== undefined) return { kind: 'patient', patientId: actor.patientId };
  throw forbidden();
}

/** Whether a resource may carry a diagnosis or a disease for this reader. */
export const readsClinical = (actor: Actor) => actor.role !== 'reception';
