import assert from 'node:assert/strict';
import type { Bundle, OperationOutcome } from '@medplum/fhirtypes';
import { describe, it } from '../../testing/node-test.ts';
import { assertValidFhir } from '../../testing/fhir-validate.ts';
import type { AuditEntry } from '../audit/audit.ts';
import type { Actor } from '../shared/actor.ts';
import { fixedClock } from '../shared/clock.ts';
import { DomainError } from '../shared/errors.ts';
import type { FhirDeps, StoreQuery } from './ports.ts';
import type { PatientRow } from './patient.ts';
import { capabilities, readResource, searchResources } from './use-cases.ts';

const base = 'https://clinic.example.org/fhir/R4';
const paula: PatientRow = {
  id: 1,
  updatedAt: new Date('2026-06-01T10:00:00Z'),
  version: 2,
  name: 'Paula',
  email: null,
  phone: '',
  birthdate: null,
  gender: 'female',
  active: true,
};
const admin: Actor = { userId: 1, role: 'admin', name: 'Ada', requestId: 'r1' };
const patient: Actor = { userId: 2, role: 'patient', name: 'Paula', patientId: 1, requestId: 'r2' };
const reception: Actor = { userId: 3, role: 'reception', name: 'Rita', requestId: 'r3' };

/** A store that answers every search with `rows` (and a next cursor when asked to), keeping the queries it was asked. */
function fakeDeps(rows: unknown[] = [paula], next?: string) {
  const queries: StoreQuery[] = [];
  const audit: AuditEntry[] = [];
  const deps: FhirDeps = {
    store: {
      search: async (_type, query) => {
        queries.push(query);
        const visible =
          query.scope.kind === 'all' || (query.scope.kind === 'patient' && query.scope.patientId === 1) ? rows : [];
        return { rows: visible as never[], next, total: query.total ? visible.length : undefined };
      },
    },
    audit: { record: async (...entries) => void audit.push(...entries) },
    careTeam: { reach: async () => new Map(), onWard: async () => new Set<number>() },
    clock: fixedClock('2026-06-10T18:00:00Z'),
    timeZone: 'Europe/Berlin',
    clinic: { name: 'Medora Clinic', address: '', phone: '', timeZone: 'Europe/Berlin' },
  };
  return { deps, queries, audit };
}

const refusedWith = (kind: string) => (error: unknown) => error instanceof DomainError && error.kind === kind;

describe('the FHIR use cases', () => {
  it('reads a resource in the reader’s scope and audits the read with its patient', async () => {
    const { deps, queries, audit } = fakeDeps();
    const resource = await readResource(deps, { base, systems: base, type: 'Patient', id: '1' }, patient);
    assertValidFhir(resource);
    assert.deepEqual(queries[0]?.scope, { kind: 'patient', patientId: 1, at: new Date('2026-06-10T18:00:00Z') });
    assert.deepEqual(
      audit.map((e) => [e.action, e.entity, e.patientId]),
      [['read', 'fhir_Patient', 1]],
    );
  });

  it("answers another patient's resource as missing and audits the attempt", async () => {
    const { deps, audit } = fakeDeps();
    const other: Actor = { ...patient, patientId: 2 };
    await assert.rejects(
      readResource(deps, { base, systems: base, type: 'Patient', id: '1' }, other),
      refusedWith('not_found'),
    );
    assert.deepEqual(
      audit.map((e) => [e.action, e.entity]),
      [['refused', 'fhir_Patient']],
    );
  });

  it('refuses the front desk clinical types with 403, audited, without asking the store', async () => {
    const { deps, queries, audit } = fakeDeps();
    await assert.rejects(
      searchResources(deps, { base, systems: base, type: 'Condition', params: [], strict: false }, reception),
      refusedWith('forbidden'),
    );
    assert.equal(queries.length, 0);
    assert.equal(audit[0]?.action, 'refused');
  });

  it('answers an id that cannot name a row, and an unknown type, as missing without asking the store', async () => {
    const { deps, queries } = fakeDeps();
    await assert.rejects(
      readResource(deps, { base, systems: base, type: 'Patient', id: 'abc' }, admin),
      refusedWith('not_found'),
    );
    await assert.rejects(
      readResource(deps, { base, systems: base, type: 'MedicationStatement', id: '1' }, admin),
      refusedWith('not_found'),
    );
    assert.equal(queries.length, 0);
  });

  it('makes a searchset with fullUrls, the total, a next link carrying the cursor and the ignored parameters', async () => {
    const { deps } = fakeDeps([paula], 'CURSOR');
    const bundle: Bundle = await searchResources(
      deps,
      {
        base,
        systems: base,
        type: 'Patient',
        params: [
          ['gender', 'female'],
          ['_count', '1'],
          ['_foo', 'x'],
        ],
        strict: false,
      },
      admin,
    );
    assertValidFhir(bundle);
    assert.equal(bundle.total, 1);
    assert.equal(bundle.entry?.[0]?.fullUrl, `${base}/Patient/1`);
    assert.equal(
      bundle.link?.find((l) => l.relation === 'next')?.url,
      `${base}/Patient?gender=female&_count=1&_foo=x&_cursor=CURSOR`,
    );
    const outcome = bundle.entry?.find((e) => e.search?.mode === 'outcome')?.resource as OperationOutcome;
    assert.match(outcome.issue[0]?.diagnostics ?? '', /_foo/);
  });

  it('answers a search no row can match without asking the store', async () => {
    const { deps, queries } = fakeDeps();
    const bundle = await searchResources(
      deps,
      { base, systems: base, type: 'Appointment', params: [['status', 'proposed']], strict: false },
      admin,
    );
    assert.deepEqual([bundle.total, bundle.entry, queries.length], [0, undefined, 0]);
  });

  it('serves the clinic as the one Organization, from configuration', async () => {
    const { deps, queries } = fakeDeps();
    const clinic = await readResource(deps, { base, systems: base, type: 'Organization', id: 'clinic' }, patient);
    assertValidFhir(clinic);
    assert.equal((clinic as { name?: string }).name, 'Medora Clinic');
    assert.equal(queries.length, 0);
  });

  it('describes itself in a valid CapabilityStatement', () => {
    const { deps } = fakeDeps();
    const statement = capabilities(deps, { base });
    assertValidFhir(statement);
    assert.equal(statement.implementation?.url, base);
  });
});
