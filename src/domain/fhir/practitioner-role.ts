import type { PractitionerRole } from '@medplum/fhirtypes';
import { catalogueToken, codeSystemUrl } from './code-systems.ts';
import { clinicRef, meta, ref, type Named, type Versioned } from './fhir.ts';
import { ID_PARAM, LAST_UPDATED_PARAM, numericId, type ResourceDef } from './resource-def.ts';

/** A doctor's place in the clinic: one per doctor, with the doctor's id. */
export interface PractitionerRoleRow extends Versioned {
  name: string;
  active: boolean;
  specialization: Named | null;
  department: Named | null;
}

export const practitionerRoleResource: ResourceDef<PractitionerRoleRow, PractitionerRole> = {
  type: 'PractitionerRole',
  params: [
    ID_PARAM,
    LAST_UPDATED_PARAM,
    { name: 'practitioner', type: 'reference', target: 'Practitioner', documentation: 'The doctor' },
    {
      name: 'specialty',
      type: 'token',
      documentation: "The doctor's specialization (Medora's specialization code system)",
      stored: catalogueToken('specialization'),
    },
  ],
  isId: numericId,
  toFhir: (row, ctx) => ({
    resourceType: 'PractitionerRole',
    id: String(row.id),
    meta: meta(row),
    active: row.active,
    practitioner: ref('Practitioner', row.id, row.name),
    organization: clinicRef(ctx),
    specialty: row.specialization
      ? [
          {
            coding: [
              {
                system: codeSystemUrl(ctx, 'specialization'),
                code: String(row.specialization.id),
                display: row.specialization.name,
              },
            ],
            text: row.specialization.name,
          },
        ]
      : undefined,
    healthcareService: row.department ? [ref('HealthcareService', row.department.id, row.department.name)] : undefined,
  }),
};
