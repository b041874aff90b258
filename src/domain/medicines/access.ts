import type { Actor } from '../shared/actor.ts';
import { forbidden } from '../shared/errors.ts';

/** Who keeps allergies and gives doses: doctors within their care team, nurses on their ward (never prescribing). */
export const CLINICAL_ROLES = ['doctor', 'nurse'] as const;
export const isClinician = (actor: Actor) => (CLINICAL_ROLES as readonly string[]).includes(actor.role);

export function requireClinician(actor: Actor): void {
  if (!isClinician(actor)) throw forbidden('Only clinicians may do this');
}
