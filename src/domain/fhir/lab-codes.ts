import type { CodeableConcept, Coding, Encounter, Quantity, Reference } from '@medplum/fhirtypes';
import type { CodeSystem as LabCodeSystem } from '../lab/catalogue.ts';
import { codeSystemUrl } from './code-systems.ts';
import { ref, type FhirContext } from './fhir.ts';
import { STAY_ID_PREFIX } from './stay-encounter.ts';
import type { TokenValue } from './resource-def.ts';

export const LOINC = 'http://loinc.org';
export const UCUM = 'http://unitsofmeasure.org';

/** A test's code as the catalogue keeps it: LOINC where one exists, else the clinic's own (Medora's lab-test system). */
export interface LabCode {
  system: LabCodeSystem;
  code: string;
  name: string;
}

export const labCoding = (code: LabCode, ctx: Pick<FhirContext, 'systems'>): Coding => ({
  system: code.system === 'loinc' ? LOINC : codeSystemUrl(ctx, 'lab-test'),
  code: code.code,
  display: code.name,
});

export const labConcept = (code: LabCode, ctx: Pick<FhirContext, 'systems'>): CodeableConcept => ({
  coding: [labCoding(code, ctx)],
  text: code.name,
});

/**
 * A `code` token as the adapters store it, `<loinc|local>|<code>`: LOINC's system, Medora's lab-test system, or
 * either when none is given.
 */
export const labCodeToken = (value: TokenValue, ctx: Pick<FhirContext, 'systems'>): string[] => {
  const systems: LabCodeSystem[] =
    value.system === undefined
      ? ['loinc', 'local']
      : value.system === LOINC
        ? ['loinc']
        : value.system === codeSystemUrl(ctx, 'lab-test')
          ? ['local']
          : [];
  return systems.map((system) => `${system}|${value.code}`);
};

/** A value in a UCUM unit: the unit is its own code, as US Core asks. */
export const ucumQuantity = (value: number, unit: string): Quantity => ({ value, unit, system: UCUM, code: unit });

/** An order's source: a visit's Encounter is its number, a stay's `stay-<admission>`. */
export const encounterOf = (source: {
  appointmentId: number | null;
  admissionId: number | null;
}): Reference<Encounter> | undefined =>
  source.appointmentId !== null
    ? ref('Encounter', source.appointmentId)
    : source.admissionId !== null
      ? ref('Encounter', `${STAY_ID_PREFIX}${source.admissionId}`)
      : undefined;
