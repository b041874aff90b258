import assert from 'node:assert/strict';
import type { DiagnosticReport, Observation } from '@medplum/fhirtypes';
import { describe, it } from './node-test.ts';
import { RESOURCES } from '../domain/fhir/resources.ts';
import { usCoreLabProblems } from './us-core-lab.ts';

const ctx = {
  base: 'https://clinic.example.org/fhir/R4',
  systems: 'https://clinic.example.org/fhir/R4',
  clinic: { name: 'Medora Clinic', address: '', phone: '', timeZone: 'UTC' },
  clinical: true,
};
const at = new Date('2026-06-10T08:00:00Z');
const observation = RESOURCES.Observation.toFhir(
  {
    id: 1,
    updatedAt: at,
    version: 1,
    patient: { id: 1, name: 'Paula Patient' },
    category: 'laboratory',
    test: { system: 'loinc', code: '2823-3', name: 'Potassium' },
    value: { type: 'quantity', value: 4.2, unit: 'mmol/L' },
    interpretation: 'N',
    range: { low: 3.5, high: 5.1 },
    status: 'final',
    effectiveAt: at,
    issued: at,
    requestId: 2,
    reportId: 3,
    specimenId: null,
    fhirId: '1',
    components: [],
    method: null,
    appointmentId: null,
    admissionId: null,
  },
  ctx,
) as Observation;

describe("US Core 5.0.1's lab elements, checked by hand", () => {
  it('finds nothing missing in a mapped lab result', () => {
    assert.deepEqual(usCoreLabProblems(observation, new Set(['2823-3'])), []);
  });

  it('names each element a lab result or report lacks', () => {
    const bare: Observation = {
      ...observation,
      effectiveDateTime: undefined,
      valueQuantity: { value: 4.2, unit: 'mmol/L' },
      code: { coding: [{ system: 'urn:local', code: '2823-3' }] },
    };
    assert.deepEqual(usCoreLabProblems(bare, new Set(['2823-3'])), [
      'Observation/1: effective[x]',
      'Observation/1: LOINC code 2823-3',
      'Observation/1: valueQuantity in UCUM (system, code)',
    ]);
    const report: DiagnosticReport = {
      resourceType: 'DiagnosticReport',
      id: '3',
      status: 'final',
      category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v2-0074', code: 'LAB' }] }],
      code: { text: 'Potassium' },
      subject: { reference: 'Patient/1' },
      effectiveDateTime: at.toISOString(),
    };
    assert.deepEqual(usCoreLabProblems(report, new Set()), [
      'DiagnosticReport/3: code',
      'DiagnosticReport/3: issued',
      'DiagnosticReport/3: result refs',
    ]);
  });
});
