import type { CodeableConcept, Coding, Observation, ObservationComponent } from '@medplum/fhirtypes';
import type { ObservationValue } from '../lab/reports.ts';
import { codeSystemUrl } from './code-systems.ts';
import type { FhirContext } from './fhir.ts';
import { labCodeToken, labCoding, LOINC, ucumQuantity, type LabCode } from './lab-codes.ts';
import type { TokenValue } from './resource-def.ts';

/**
 * Vital signs, NEWS2 and fluid balance as Observations beside the lab's (issue 49): each vital sign coded as FHIR
 * R4's vital signs profiles ask and naming them in meta.profile, blood pressure one Observation with systolic and
 * diastolic components, a set's NEWS2 an Observation of its total with each parameter's score as a component, each
 * fluid intake or output an Observation of its volume. NEWS2 and fluid rows answer as `news2-<set>` and `fluid-<event>`.
 */

export const NEWS2_ID_PREFIX = 'news2-';
export const FLUID_ID_PREFIX = 'fluid-';
export const SNOMED = 'http://snomed.info/sct';
/** SNOMED CT's "Royal College of Physicians NEWS2 total score". */
export const NEWS2_SNOMED = '1104051000000101';

/** How a row's code is stored: LOINC, Medora's lab-test codes, SNOMED CT, or Medora's nursing words. */
export type ObservationCodeSystem = LabCode['system'] | 'snomed' | 'nursing';
export interface ObservationCode {
  system: ObservationCodeSystem;
  code: string;
  name: string;
}

export interface ObservationComponentRow {
  code: ObservationCode;
  value: ObservationValue;
}

const PROFILE = 'http://hl7.org/fhir/StructureDefinition/';
/** The R4 vital signs profile each LOINC code answers to (all of them also to `vitalsigns`). */
export const VITAL_PROFILES: Record<string, string> = {
  '85354-9': 'bp',
  '8867-4': 'heartrate',
  '9279-1': 'resprate',
  '8310-5': 'bodytemp',
  '2708-6': 'oxygensat',
  '29463-7': 'bodyweight',
  '8302-2': 'bodyheight',
  '39156-5': 'bmi',
};
export const BLOOD_PRESSURE: ObservationCode = {
  system: 'loinc',
  code: '85354-9',
  name: 'Blood pressure panel with all children optional',
};
/** US Core's pulse oximetry code, beside R4's arterial oxygen saturation. */
const PULSE_OXIMETRY: Coding = {
  system: LOINC,
  code: '59408-5',
  display: 'Oxygen saturation in Arterial blood by Pulse oximetry',
};

/** The profiles a vital sign names: `vitalsigns`, and its own where R4 has one (pain has none). */
export const vitalProfiles = (code: string): string[] => {
  const specific = VITAL_PROFILES[code];
  return [`${PROFILE}vitalsigns`, ...(specific === undefined ? [] : [`${PROFILE}${specific}`])];
};

export function observationCoding(code: ObservationCode, ctx: Pick<FhirContext, 'systems'>): Coding {
  if (code.system === 'snomed') return { system: SNOMED, code: code.code, display: code.name };
  if (code.system === 'nursing') return { system: codeSystemUrl(ctx, 'nursing'), code: code.code, display: code.name };
  return labCoding({ system: code.system, code: code.code, name: code.name }, ctx);
}

export const observationConcept = (code: ObservationCode, ctx: Pick<FhirContext, 'systems'>): CodeableConcept => ({
  coding: [
    observationCoding(code, ctx),
    ...(code.system === 'loinc' && code.code === '2708-6' ? [PULSE_OXIMETRY] : []),
  ],
  text: code.name,
});

/** A `code` token as stored, `<system>|<code>`: the lab's systems, SNOMED CT or Medora's nursing words. */
export const observationCodeToken = (value: TokenValue, ctx: Pick<FhirContext, 'systems'>): string[] => {
  const lab = labCodeToken(value, ctx);
  if (value.system === undefined) return [...lab, `snomed|${value.code}`, `nursing|${value.code}`];
  if (value.system === SNOMED) return [`snomed|${value.code}`];
  if (value.system === codeSystemUrl(ctx, 'nursing')) return [`nursing|${value.code}`];
  return lab;
};

export const observationValue = (
  value: ObservationValue,
): Pick<ObservationComponent, 'valueQuantity' | 'valueCodeableConcept' | 'valueString'> =>
  value.type === 'quantity'
    ? { valueQuantity: ucumQuantity(value.value, value.unit) }
    : value.type === 'coded'
      ? { valueCodeableConcept: { text: value.code } }
      : { valueString: value.text };

export const observationComponents = (
  components: ObservationComponentRow[],
  ctx: Pick<FhirContext, 'systems'>,
): Observation['component'] =>
  components.length === 0
    ? undefined
    : components.map((c) => ({ code: observationConcept(c.code, ctx), ...observationValue(c.value) }));
