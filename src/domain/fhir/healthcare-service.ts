import type { HealthcareService } from '@medplum/fhirtypes';
import { clinicRef, meta, type Versioned } from './fhir.ts';
import { ID_PARAM, LAST_UPDATED_PARAM, numericId, type ResourceDef } from './resource-def.ts';

/** A department of the clinic. */
export interface DepartmentRow extends Versioned {
  name: string;
  description: string;
}

export const healthcareServiceResource: ResourceDef<DepartmentRow, HealthcareService> = {
  type: 'HealthcareService',
  params: [
    ID_PARAM,
    LAST_UPDATED_PARAM,
    { name: 'name', type: 'string', documentation: "The start of the department's name" },
  ],
  isId: numericId,
  toFhir: (row, ctx) => ({
    resourceType: 'HealthcareService',
    id: String(row.id),
    meta: meta(row),
    active: true,
    providedBy: clinicRef(ctx),
    name: row.name,
    comment: row.description || undefined,
  }),
};
