import type { Organization } from '@medplum/fhirtypes';
import { CLINIC_ID } from './fhir.ts';
import { ID_PARAM, type ResourceDef } from './resource-def.ts';

/** The clinic is configured, not stored: it has no row, so no meta. */
export const organizationResource: ResourceDef<null, Organization> = {
  type: 'Organization',
  params: [ID_PARAM],
  isId: (id) => id === CLINIC_ID,
  configured: () => [[CLINIC_ID, null]],
  toFhir: (_row, ctx) => ({
    resourceType: 'Organization',
    id: CLINIC_ID,
    active: true,
    type: [
      {
        coding: [
          {
            system: 'http://terminology.hl7.org/CodeSystem/organization-type',
            code: 'prov',
            display: 'Healthcare Provider',
          },
        ],
      },
    ],
    name: ctx.clinic.name,
    telecom: ctx.clinic.phone ? [{ system: 'phone', value: ctx.clinic.phone }] : undefined,
    address: ctx.clinic.address ? [{ use: 'work', text: ctx.clinic.address }] : undefined,
  }),
};
