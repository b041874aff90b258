import type { Actor } from '../shared/actor.ts';
import { forbidden } from '../shared/errors.ts';
import type { FhirType } from './resource-def.ts';

/** Whose rows a reader sees of a type kept in patients' compartments. */
export type Scope =
  | { kind: 'all' }
  | { kind: 'patient'; patientId: number; at: Date }
  | { kind: 'doctor'; doctorId: number; at: Date }
  | { kind: 'ward'; departmentId: number };

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
/** What a diagnosis or a result is: the front desk never receives it (DESIGN §3), nor does it an order's note. */
const CLINICAL: readonly FhirType[] = ['Condition', 'Observation', 'DiagnosticReport'];
/** Medicines and allergies: the clinicians' (a nurse's on their ward) and the patient's, never the desk's or the lab's. */
const MEDICINES: readonly FhirType[] = [
  'Medication',
  'MedicationRequest',
  'MedicationAdministration',
  'AllergyIntolerance',
];

/**
 * The same rules as the rest of Medora: a patient reads their own compartment, a doctor the compartments of the
 * patients whose care team they are in or whose record they hold open by breaking the glass at `at` (domain/care;
 * not their bills), reception everything but clinical content (diagnoses, results), admins everything; the lab reads
 * no patient's compartment through FHIR; the audit trail is the admins' alone.
 */
export function scopeFor(type: FhirType, actor: Actor, at: Date): Scope {
  if (actor.role === 'admin' || DIRECTORY.includes(type)) return { kind: 'all' };
  if (type === 'AuditEvent') throw forbidden('Only admins read the audit trail');
  if (MEDICINES.includes(type)) return medicinesScope(type, actor, at);
  if (actor.role === 'reception') {
    if (CLINICAL.includes(type)) throw forbidden('The front desk does not read clinical content');
    return { kind: 'all' };
  }
  if (actor.role === 'doctor' && actor.doctorId !== undefined) {
    if (type === 'Invoice') throw forbidden('Doctors do not read bills');
    return { kind: 'doctor', doctorId: actor.doctorId, at };
  }
  // A patient's results are theirs once released: the store reads only those (src/db/fhir-search.pg.ts).
  if (actor.role === 'patient' && actor.patientId !== undefined)
    return { kind: 'patient', patientId: actor.patientId, at };
  throw forbidden();
}

function medicinesScope(type: FhirType, actor: Actor, at: Date): Scope {
  if (actor.role === 'reception' || actor.role === 'lab') throw forbidden('Medicines and allergies are for clinicians');
  if (type === 'Medication') return { kind: 'all' };
  if (actor.role === 'nurse' && actor.wardId !== undefined) return { kind: 'ward', departmentId: actor.wardId };
  if (actor.role === 'doctor' && actor.doctorId !== undefined) return { kind: 'doctor', doctorId: actor.doctorId, at };
  if (actor.role === 'patient' && actor.patientId !== undefined)
    return { kind: 'patient', patientId: actor.patientId, at };
  throw forbidden();
}

/** Whether a resource may carry a diagnosis or a disease for this reader. */
export const readsClinical = (actor: Actor) => actor.role !== 'reception';
