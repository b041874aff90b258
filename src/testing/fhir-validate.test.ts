import assert from 'node:assert/strict';
import { describe, it } from './node-test.ts';
import { assertValidFhir } from './fhir-validate.ts';

describe('the FHIR validation of the tests', () => {
  it('accepts a valid resource', () => {
    assertValidFhir({ resourceType: 'Patient', id: '1', gender: 'female', name: [{ text: 'A B' }] });
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
