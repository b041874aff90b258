import type { Medication } from '@medplum/fhirtypes';
import { type FormularyEntry, medicineLabel } from '../medicines/formulary.ts';
import { meta } from './fhir.ts';
import { ID_PARAM, LAST_UPDATED_PARAM, numericId, storedCode, type ResourceDef } from './resource-def.ts';

/** A medicine of the clinic's formulary, by generic name, form and strength (no proprietary drug database). */
export interface MedicationRow extends FormularyEntry {
  updatedAt: Date;
}

export const medicationResource: ResourceDef<MedicationRow, Medication> = {
  type: 'Medication',
  params: [
    ID_PARAM,
    LAST_UPDATED_PARAM,
    {
      name: 'status',
      type: 'token',
      documentation: 'active | inactive (no longer prescribed)',
      stored: storedCode({ active: ['true'], inactive: ['false'] }),
    },
  ],
  isId: numericId,
  toFhir: (row) => ({
    resourceType: 'Medication',
    id: String(row.id),
    meta: meta(row),
    code: { text: medicineLabel(row) },
    status: row.active ? 'active' : 'inactive',
    form: { text: row.form },
    ingredient: [{ itemCodeableConcept: { text: row.genericName }, isActive: true }],
  }),
};
