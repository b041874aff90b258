import type { Resource } from '@medplum/fhirtypes';
import type { FhirContext } from './fhir.ts';

/** Every resource type the API reads and searches, in the CapabilityStatement's order. */
export const FHIR_TYPES = [
  'Patient',
  'Practitioner',
  'PractitionerRole',
  'Organization',
  'Location',
  'HealthcareService',
  'Schedule',
  'Slot',
  'Appointment',
  'Encounter',
  'Condition',
  'Invoice',
  'ServiceRequest',
  'Specimen',
  'Observation',
  'DiagnosticReport',
  'Medication',
  'MedicationRequest',
  'MedicationAdministration',
  'AllergyIntolerance',
  'AuditEvent',
  'CodeSystem',
] as const;
export type FhirType = (typeof FHIR_TYPES)[number];

export const isFhirType = (name: string): name is FhirType => (FHIR_TYPES as readonly string[]).includes(name);

export interface TokenValue {
  system?: string;
  code: string;
}

export type SearchParamType = 'token' | 'date' | 'reference' | 'string';

export interface SearchParamDef {
  name: string;
  type: SearchParamType;
  documentation: string;
  /** A reference's one target type: `patient=123` means `Patient/123`. */
  target?: FhirType;
  /** A token's stored values for one FHIR code; none when the code stands for nothing Medora stores. */
  stored?: (value: TokenValue, ctx: Pick<FhirContext, 'systems'>) => string[];
}

/** One resource type: its search parameters and its one pure mapper from the stored row. */
export interface ResourceDef<Row, R extends Resource = Resource> {
  type: FhirType;
  params: SearchParamDef[];
  /** The date parameter `_sort` may name besides `_id` and `_lastUpdated`. */
  sortDate?: string;
  /** Whether an id names a row at all: the rest are simply not found, never sent to the database. */
  isId: (id: string) => boolean;
  toFhir(row: Row, ctx: FhirContext): R;
  /** The patient whose compartment a row is in, for the audit trail. */
  patientOf?: (row: Row) => number;
  /** The operations on an instance besides read, by FHIR's OperationDefinition. */
  operations?: { name: string; definition: string; documentation?: string }[];
  /** A type made from configuration, not rows: every resource there is, by id. */
  configured?: () => (readonly [string, Row])[];
}

export const numericId = (id: string) => /^[1-9]\d{0,9}$/.test(id) && Number(id) <= 2147483647;

/** An id `<prefix><row id>`: a second kind of row answering as the same type (a stay beside the visits). */
export const prefixedId = (prefix: string) => (id: string) =>
  id.startsWith(prefix) && numericId(id.slice(prefix.length));

export const ID_PARAM: SearchParamDef = { name: '_id', type: 'token', documentation: 'The logical id of the resource' };
export const LAST_UPDATED_PARAM: SearchParamDef = {
  name: '_lastUpdated',
  type: 'date',
  documentation: 'When the resource last changed (meta.lastUpdated)',
};

/** A token's code as stored when it names one of `codes` (in whichever system), else nothing. */
export const storedCode =
  <S extends string>(fromFhir: Record<string, readonly S[]>) =>
  (value: TokenValue): string[] => [...(fromFhir[value.code] ?? [])];

/** An identifier token `system|value` or `value`: Medora's id when the system is Medora's (or not given). */
export const identifierToken =
  (system: (ctx: Pick<FhirContext, 'systems'>) => string) =>
  (value: TokenValue, ctx: Pick<FhirContext, 'systems'>): string[] =>
    (value.system === undefined || value.system === system(ctx)) && numericId(value.code) ? [value.code] : [];

export const booleanToken = (value: TokenValue): string[] =>
  value.code === 'true' || value.code === 'false' ? [value.code] : [];

/** A mapping from stored values to FHIR codes, turned around: each code to the stored values it stands for. */
export function inverse<K extends string, V extends string>(map: Record<K, V>): Record<string, K[]> {
  const out: Record<string, K[]> = {};
  for (const [key, value] of Object.entries(map) as [K, V][]) out[value] = [...(out[value] ?? []), key];
  return out;
}
