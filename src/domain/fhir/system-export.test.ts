import assert from 'node:assert/strict';
import { describe, it } from '../../testing/node-test.ts';
import type { Actor } from '../shared/actor.ts';
import { DomainError } from '../shared/errors.ts';
import type { AuditEntry } from '../audit/audit.ts';
import { movableClock } from '../../testing/scheduling-fakes.ts';
import type { PatientRow } from './patient.ts';
import type { ExportJob, ExportJobs } from './ports.ts';
import {
  cancelSystemExport,
  expireSystemExports,
  runSystemExport,
  startSystemExport,
  systemExportFile,
  systemExportStatus,
  type SystemExportDeps,
} from './system-export.ts';

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
const doctor: Actor = { userId: 2, role: 'doctor', name: 'Dr. D', doctorId: 1, requestId: 'r2' };

/** Jobs in memory; `held` says whether the worker still holds a job (false: cancelled or taken over). */
function fakeDeps() {
  const jobs = new Map<number, ExportJob>();
  const begun: string[] = [];
  const audited: AuditEntry[] = [];
  const clock = movableClock('2026-06-10T18:00:00Z');
  let held = true;
  const store: ExportJobs = {
    create: async (job) => {
      const id = jobs.size + 1;
      jobs.set(id, { ...job, id, status: 'pending', error: null, expiresAt: null, files: [] });
      return id;
    },
    find: async (id) => jobs.get(id),
    remove: async (id) => jobs.delete(id),
    clearFile: async (_holder, _id, type) => {
      if (held) begun.push(type);
      return held;
    },
    saveChunk: async () => held,
    saveFile: async (_holder, id, type, count) => {
      const job = jobs.get(id);
      if (!held || !job) return false;
      job.files.push({ type, count });
      return true;
    },
    finish: async (_holder, id, outcome) => {
      const job = jobs.get(id);
      if (job)
        Object.assign(job, {
          status: outcome.status,
          error: 'error' in outcome ? outcome.error : null,
          expiresAt: outcome.expiresAt,
        });
    },
    expire: async (now) => {
      const due = [...jobs.values()].filter(
        (job) => (job.status === 'done' || job.status === 'failed') && job.expiresAt !== null && job.expiresAt <= now,
      );
      for (const job of due) Object.assign(job, { status: 'expired', files: [] });
      return due.map((job) => job.id);
    },
    chunks: async function* () {},
  };
  const audit = {
    record: async (...entries: AuditEntry[]) => {
      audited.push(...entries);
    },
  };
  const deps: SystemExportDeps = {
    store: {
      search: async (type) => ({ rows: (type === 'Patient' ? [paula] : []) as never[] }),
    },
    audit,
    careTeam: { reach: async () => new Map(), onWard: async () => new Set<number>() },
    clock,
    timeZone: 'Europe/Berlin',
    clinic: { name: 'Medora Clinic', address: '', phone: '', timeZone: 'Europe/Berlin' },
    jobs: store,
    retentionHours: 24,
    transaction: (fn) => fn({ jobs: store, audit }),
  };
  return { deps, jobs, begun, audited, clock, release: () => (held = false) };
}

const start = (deps: SystemExportDeps, params: [string, string][], actor = admin) =>
  startSystemExport(deps, { base, systems: base, params, request: `${base}/$export` }, actor);

describe('the system export', () => {
  it('is for admins only, and refuses a type it does not export', async () => {
    const { deps } = fakeDeps();
    await assert.rejects(start(deps, [], doctor), (e) => e instanceof DomainError && e.kind === 'forbidden');
    await assert.rejects(start(deps, [['_type', 'Nonsense']]), (e) => e instanceof DomainError && e.kind === 'invalid');
  });

  it('writes the types left after a restart, then answers the manifest with absolute file URLs', async () => {
    const { deps, jobs, begun } = fakeDeps();
    const id = await start(deps, [['_type', 'Patient,Practitioner,Organization']]);
    const job = jobs.get(id);
    assert.deepEqual(job?.types, ['Patient', 'Practitioner', 'Organization']);
    // The worker before the restart wrote Patient.
    job?.files.push({ type: 'Patient', count: 1 });
    assert.deepEqual(await systemExportStatus(deps, { id: String(id) }, admin), {
      state: 'running',
      progress: '1 of 3 types',
    });
    await runSystemExport(deps, { id, holder: 'w2' });
    assert.deepEqual(begun, ['Practitioner', 'Organization']);
    const status = await systemExportStatus(deps, { id: String(id) }, admin);
    assert.equal(status.state, 'done');
    if (status.state !== 'done') return;
    assert.equal(status.manifest.requiresAccessToken, true);
    assert.deepEqual(
      status.manifest.output.map((o) => o.url),
      [`${base}/$export-file/${id}/Patient.ndjson`, `${base}/$export-file/${id}/Organization.ndjson`],
    );
  });

  it('stops at the next type once the job is no longer its worker’s, and a cancelled job is gone', async () => {
    const { deps, begun, release } = fakeDeps();
    const id = await start(deps, [['_type', 'Patient,Organization']]);
    await runSystemExport(deps, {
      id,
      holder: 'w1',
      between: async () => {
        release();
        return true;
      },
    });
    assert.deepEqual(begun, ['Patient']);
    await cancelSystemExport(deps, { id: String(id) }, admin);
    await assert.rejects(
      systemExportStatus(deps, { id: String(id) }, admin),
      (e) => e instanceof DomainError && e.kind === 'not_found',
    );
  });

  it('keeps a finished job for its retention, says when it expires, then answers that it expired, audited', async () => {
    const { deps, jobs, audited, clock } = fakeDeps();
    const id = await start(deps, [['_type', 'Patient']]);
    await runSystemExport(deps, { id, holder: 'w1' });
    const status = await systemExportStatus(deps, { id: String(id) }, admin);
    assert.equal(status.state, 'done');
    if (status.state !== 'done') return;
    assert.equal(status.expires.toISOString(), '2026-06-11T18:00:00.000Z');
    // The last moment before it expires, the worker keeps it.
    clock.set('2026-06-11T17:59:59Z');
    assert.equal(await expireSystemExports(deps), 0);
    assert.equal((await systemExportStatus(deps, { id: String(id) }, admin)).state, 'done');
    // From when it expires it is missing, saying so, even before the worker deleted its files.
    clock.set('2026-06-11T18:00:00Z');
    const expired = (e: unknown) =>
      e instanceof DomainError && e.kind === 'not_found' && e.code === 'export_expired' && /expired at/.test(e.message);
    await assert.rejects(systemExportStatus(deps, { id: String(id) }, admin), expired);
    assert.equal(await expireSystemExports(deps), 1);
    assert.equal(jobs.get(id)?.status, 'expired');
    assert.deepEqual(jobs.get(id)?.files, []);
    assert.deepEqual(
      audited.filter((e) => e.action === 'export_system_expire').map((e) => [e.entityId, e.actor]),
      [[id, null]],
    );
    await assert.rejects(systemExportStatus(deps, { id: String(id) }, admin), expired);
    await assert.rejects(systemExportFile(deps, { id: String(id), file: 'Patient.ndjson' }, admin), expired);
    await assert.rejects(cancelSystemExport(deps, { id: String(id) }, admin), expired);
    // A job still running never expires.
    const running = await start(deps, [['_type', 'Patient']]);
    clock.set('2027-06-11T18:00:00Z');
    assert.equal(await expireSystemExports(deps), 0);
    assert.equal((await systemExportStatus(deps, { id: String(running) }, admin)).state, 'running');
  });
});
