import { describe, it } from '../../testing/node-test.ts';
import assert from 'node:assert/strict';
import type { Actor } from '../shared/actor.ts';
import { fixedClock } from '../shared/clock.ts';
import { DomainError, notFound } from '../shared/errors.ts';
import type { Page } from '../shared/pagination.ts';
import {
  recordingRefusals,
  refusal,
  type AuditEntry,
  type AuditFilter,
  type AuditRow,
  type SealBacklog,
} from './audit.ts';
import { MAX_EXPORT_ROWS } from '../shared/csv.ts';
import { exportAuditCsv, listAuditEntries, pruneAnonymousFailures, verifyTrail, type AuditDeps } from './use-cases.ts';

const admin: Actor = { userId: 1, role: 'admin', name: 'Ada', requestId: 'req-1' };
const patient: Actor = { userId: 2, role: 'patient', name: 'Pat', patientId: 5 };

const row = (id: number, overrides: Partial<AuditRow> = {}): AuditRow => ({
  id,
  at: new Date('2026-06-10T08:00:00Z'),
  actor: { id: 1, name: 'Ada', role: 'admin' },
  action: 'read_records',
  entity: 'patient',
  entityId: '5',
  patientId: 5,
  requestId: 'req-9',
  details: null,
  ...overrides,
});

function fakeAuditDeps(rows: AuditRow[] = [], backlog: SealBacklog = { rows: 0, oldestAgeSeconds: null }) {
  const written: AuditEntry[] = [];
  const asked: AuditFilter[] = [];
  let prunedBefore: Date | undefined;
  const deps: AuditDeps = {
    auditRows: {
      list: async (filter, page): Promise<Page<AuditRow>> => {
        asked.push(filter);
        return { items: rows, total: rows.length, totalIsLowerBound: false, page: page.page, perPage: page.perPage };
      },
      rows: async (filter, limit) => {
        asked.push(filter);
        return rows.slice(0, limit);
      },
    },
    audit: { record: async (...e) => void written.push(...e) },
    trail: {
      verify: async () => ({ intact: true, rows: rows.length }),
      seal: async (maxRows) => Math.min(maxRows, backlog.rows),
      backlog: async () => backlog,
      pruneAnonymous: async (before) => {
        prunedBefore = before;
        return 3;
      },
    },
    clock: fixedClock('2026-06-10T10:00:00Z'),
    timeZone: 'Europe/Berlin',
    anonymousRetentionDays: 90,
  };
  return { deps, written, asked, prunedBefore: () => prunedBefore };
}

const fieldsOf = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => assert.fail('expected a refusal'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof DomainError && error.kind === 'invalid', String(error));
  return Object.keys(error.fields ?? {}).sort();
};

describe('recordingRefusals', () => {
  /** A transaction over a buffer: its writes count only when `fn` succeeds, as a database's would. */
  function fakeTransaction(committed: AuditEntry[]) {
    return async <T>(fn: (write: (e: AuditEntry) => void) => Promise<T>): Promise<T> => {
      const pending: AuditEntry[] = [];
      const result = await fn((e) => pending.push(e));
      committed.push(...pending);
      return result;
    };
  }

  it('records a refusal after the transaction it was thrown in has rolled back, and answers not found', async () => {
    const committed: AuditEntry[] = [];
    const transaction = fakeTransaction(committed);
    const attempt = recordingRefusals({ record: async (...e) => void committed.push(...e) }, () =>
      transaction(async (write) => {
        write({ actor: patient, action: 'pay', entity: 'billing' });
        throw refusal('Bill', patient, { entity: 'billing', entityId: 8, patientId: 6, attempt: 'pay' });
      }),
    );
    await assert.rejects(attempt, { kind: 'not_found', code: 'not_found', message: 'Bill not found' });
    assert.deepEqual(committed, [
      { actor: patient, action: 'refused', entity: 'billing', entityId: 8, patientId: 6, details: { attempt: 'pay' } },
    ]);
  });

  it('records nothing for any other failure', async () => {
    const committed: AuditEntry[] = [];
    await assert.rejects(
      recordingRefusals({ record: async (...e) => void committed.push(...e) }, async () =>
        Promise.reject(notFound('Bill')),
      ),
      { kind: 'not_found' },
    );
    assert.deepEqual(committed, []);
  });
});

describe('listAuditEntries', () => {
  it('filters by user, patient, action and clinic dates, both included, and audits the reading', async () => {
    const { deps, written, asked } = fakeAuditDeps([row(7)]);
    const page = await listAuditEntries(
      deps,
      { user_id: '3', patient_id: '5', action: 'refused', from: '2026-06-01', to: '2026-06-02', per_page: '20' },
      admin,
    );
    assert.equal(page.items[0]?.entity_id, '5');
    assert.deepEqual(asked, [
      {
        userId: 3,
        patientId: 5,
        action: 'refused',
        since: new Date('2026-05-31T22:00:00Z'),
        until: new Date('2026-06-02T22:00:00Z'),
      },
    ]);
    assert.deepEqual(written, [
      {
        actor: admin,
        action: 'list',
        entity: 'audit_log',
        details: {
          user_id: 3,
          patient_id: 5,
          action: 'refused',
          from: '2026-06-01',
          to: '2026-06-02',
          page: 1,
          per_page: 20,
        },
      },
    ]);
  });

  it('names every bad filter in one 422', async () => {
    const { deps } = fakeAuditDeps();
    assert.deepEqual(
      await fieldsOf(
        listAuditEntries(
          deps,
          { user_id: 'x', patient_id: '-1', action: 'DROP TABLE', from: '2026-02-30', to: 'soon' },
          admin,
        ),
      ),
      ['action', 'from', 'patient_id', 'to', 'user_id'],
    );
    assert.deepEqual(await fieldsOf(listAuditEntries(deps, { from: '2026-06-02', to: '2026-06-01' }, admin)), ['to']);
  });

  it('is for admins only', async () => {
    await assert.rejects(listAuditEntries(fakeAuditDeps().deps, {}, patient), { kind: 'forbidden' });
  });
});

describe('exportAuditCsv', () => {
  it('writes one escaped line a row, defusing formulas, and audits the export', async () => {
    const { deps, written } = fakeAuditDeps([
      row(9, { actor: { id: 4, name: '=cmd|calc', role: 'doctor' }, details: { q: 'Smith, "J"' } }),
      row(8, { actor: null, patientId: null }),
    ]);
    const { filename, csv } = await exportAuditCsv(deps, { action: 'read_records' }, admin);
    assert.equal(filename, 'medora-audit-2026-06-10.csv');
    assert.equal(
      csv,
      'id,at,actor_id,actor_name,actor_role,action,entity,entity_id,patient_id,request_id,details\r\n' +
        `9,2026-06-10T08:00:00.000Z,4,'=cmd|calc,doctor,read_records,patient,5,5,req-9,"{""q"":""Smith, \\""J\\""""}"\r\n` +
        '8,2026-06-10T08:00:00.000Z,,,,read_records,patient,5,,req-9,\r\n',
    );
    assert.deepEqual(written, [
      { actor: admin, action: 'export', entity: 'audit_log', details: { action: 'read_records', rows: 2 } },
    ]);
  });

  it(`refuses more than ${MAX_EXPORT_ROWS} rows, naming the date range`, async () => {
    const { deps, written } = fakeAuditDeps(Array.from({ length: MAX_EXPORT_ROWS + 1 }, (_, i) => row(i + 1)));
    assert.deepEqual(await fieldsOf(exportAuditCsv(deps, {}, admin)), ['from']);
    assert.deepEqual(written, []);
  });
});

describe('pruneAnonymousFailures', () => {
  it('deletes anonymous failures older than the retention, counted back from now', async () => {
    const { deps, prunedBefore } = fakeAuditDeps();
    assert.deepEqual(await pruneAnonymousFailures(deps), { removed: 3, olderThanDays: 90 });
    assert.deepEqual(prunedBefore(), new Date('2026-03-12T10:00:00Z'));
  });
});

describe('verifyTrail', () => {
  it('reports rows waiting to be sealed, and calls sealing stalled once the oldest has waited past the bound', async () => {
    const waiting = { rows: 3, oldestAgeSeconds: 42 };
    assert.deepEqual(await verifyTrail(fakeAuditDeps([], waiting).deps, 60), {
      chain: { intact: true, rows: 0 },
      backlog: waiting,
      stalled: false,
    });
    assert.equal((await verifyTrail(fakeAuditDeps([], waiting).deps, 30)).stalled, true);
    assert.equal((await verifyTrail(fakeAuditDeps([]).deps, 0)).stalled, false);
  });
});
