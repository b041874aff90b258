import assert from 'node:assert/strict';
import { describe, it } from './node-test.ts';
import { assertValidFhir } from './fhir-validate.ts';

describe('the FHIR validation of the tests', () => {
  it('accepts a valid resource', () => {
    assertValidFhir({ resourceType: 'Patient', id: '1', gender: 'female', name: [{ text: 'A B' }] });
  });

  it("refuses a MedicationRequest valid in R4 that US Core's us-core-medicationrequest does not take", () => {
    const request = {
      resourceType: 'MedicationRequest',
      id: '1',
      status: 'active',
      intent: 'order',
      medicationCodeableConcept: { text: 'Amoxicillin 500 mg capsule' },
      subject: { reference: 'Patient/1' },
    };
    assertValidFhir({ ...request, requester: { reference: 'Practitioner/2' } });
    assert.throws(() => assertValidFhir(request), /us-core-medicationrequest[\s\S]*requester/);
  });

  it('refuses an element R4 does not have', () => {
    assert.throws(() => assertValidFhir({ resourceType: 'Patient', id: '1', bogus: true }), /bogus/);
  });

  it('refuses a code outside a required binding, which validateResource lets through', () => {
    assert.throws(() => assertValidFhir({ resourceType: 'Patient', id: '1', gender: 'f' }), /administrative-gender/);
    assert.throws(
      () =>
        assertValidFhir({
          resourceType: 'Bundle',
          type: 'searchset',
          entry: [
            {
              resource: {
                resourceType: 'Appointment',
                status: 'scheduled',
                participant: [{ status: 'accepted', actor: { display: 'x' } }],
              },
            },
          ],
        }),
      /appointmentstatus/,
    );
  });

  it('refuses empty arrays', () => {
    assert.throws(() => assertValidFhir({ resourceType: 'Patient', id: '1', name: [] }), /empty/);
  });
});
