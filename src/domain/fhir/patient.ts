import type { Patient } from '@medplum/fhirtypes';
import type { Gender } from '../shared/actor.ts';
import { identifierSystem, meta, telecom, type Versioned } from './fhir.ts';
import {
  ID_PARAM,
  LAST_UPDATED_PARAM,
  identifierToken,
  numericId,
  storedCode,
  type ResourceDef,
} from './resource-def.ts';

export interface PatientRow extends Versioned {
  name: string;
  email: string | null;
  phone: string;
  birthdate: string | null;
  gender: Gender | null;
  active: boolean;
}

/** The Patient ID the UI shows, as an identifier. */
export const patientIdSystem = (ctx: { systems: string }) => identifierSystem(ctx, 'patient-id');

/** Medora's genders are a subset of administrative-gender, spelt alike. */
const GENDER_CODES: Record<string, Gender[]> = { male: ['male'], female: ['female'], other: ['other'] };

export const patientResource: ResourceDef<PatientRow, Patient> = {
  type: 'Patient',
  params: [
    ID_PARAM,
    LAST_UPDATED_PARAM,
    {
      name: 'identifier',
      type: 'token',
      documentation: 'The Patient ID Medora shows',
      stored: identifierToken(patientIdSystem),
    },
    { name: 'name', type: 'string', documentation: 'The start of any part of the name' },
    { name: 'gender', type: 'token', documentation: 'male | female | other', stored: storedCode(GENDER_CODES) },
    { name: 'birthdate', type: 'date', documentation: 'The date of birth' },
  ],
  isId: numericId,
  operations: [
    {
      name: 'everything',
      definition: 'http://hl7.org/fhir/OperationDefinition/Patient-everything',
      documentation:
        'GET or POST (parameters in the query, a Parameters body or a form). Takes start and end (care dates: an Appointment, Encounter, Condition or Invoice by its date; the Patient and Locations always), ' +
        '_since (meta.lastUpdated at or after), _type (comma-separated, of the types it returns) and _count. ' +
        'What the resources refer to (Practitioners, PractitionerRoles, the Organization, Locations, Schedules, Slots) comes with them, search mode include, ' +
        'of the types _type names; ' +
        '_format=application/fhir+ndjson or application/zip exports the same resources as Bulk Data NDJSON.',
    },
  ],
  patientOf: (row) => row.id,
  toFhir: (row, ctx) => ({
    resourceType: 'Patient',
    id: String(row.id),
    meta: meta(row),
    identifier: [{ use: 'usual', system: patientIdSystem(ctx), value: String(row.id) }],
    active: row.active,
    name: [{ text: row.name }],
    telecom: telecom(row.phone, row.email),
    gender: row.gender ?? undefined,
    birthDate: row.birthdate ?? undefined,
  }),
};
