import type { Practitioner } from '@medplum/fhirtypes';
import type { Gender } from '../shared/actor.ts';
import { identifierSystem, meta, telecom, type Versioned } from './fhir.ts';
import { ID_PARAM, LAST_UPDATED_PARAM, identifierToken, numericId, type ResourceDef } from './resource-def.ts';

/** A doctor with their account. */
export interface PractitionerRow extends Versioned {
  name: string;
  email: string | null;
  phone: string;
  gender: Gender | null;
  birthdate: string | null;
  address: string;
  active: boolean;
}

export const doctorIdSystem = (ctx: { base: string }) => identifierSystem(ctx, 'doctor-id');

export const practitionerResource: ResourceDef<PractitionerRow, Practitioner> = {
  type: 'Practitioner',
  params: [
    ID_PARAM,
    LAST_UPDATED_PARAM,
    {
      name: 'identifier',
      type: 'token',
      documentation: "The doctor's id in Medora",
      stored: identifierToken(doctorIdSystem),
    },
    { name: 'name', type: 'string', documentation: 'The start of any part of the name' },
  ],
  isId: numericId,
  toFhir: (row, ctx) => ({
    resourceType: 'Practitioner',
    id: String(row.id),
    meta: meta(row),
    identifier: [{ use: 'usual', system: doctorIdSystem(ctx), value: String(row.id) }],
    active: row.active,
    name: [{ text: row.name }],
    telecom: telecom(row.phone, row.email),
    address: row.address ? [{ use: 'work', text: row.address }] : undefined,
    gender: row.gender ?? undefined,
    birthDate: row.birthdate ?? undefined,
  }),
};
