import assert from 'node:assert/strict';
import { describe, it } from '../../testing/node-test.ts';
import type { Actor } from '../shared/actor.ts';
import { fixedClock } from '../shared/clock.ts';
import { DomainError } from '../shared/errors.ts';
import type { PatientRow } from './patient.ts';
import type { ExportJob, ExportJobs } from './ports.ts';
import {
  cancelSystemExport,
  runSystemExport,
  startSystemExport,
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
  let held = true;
  const store: ExportJobs = {
    create: async (job) => {
      const id = jobs.size + 1;
      jobs.set(id, { ...job, id, status: 'pending', error: null, files: [] });
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
      if (job) Object.assign(job, { status: outcome.status, error: 'error' in outcome ? outcome.error : null });
    },
    chunks: async function* () {},
  };
  const deps: SystemExportDeps = {
    store: {
      search: async (type) => ({ rows: (type === 'Patient' ? [paula] : []) as never[] }),
    },
    audit: { record: async () => {} },
    careTeam: { reach: async () => new Map(), onWard: async () => new Set<number>() },
    clock: fixedClock('2026-06-10T18:00:00Z'),
    timeZone: 'Europe/Berlin',
    clinic: { name: 'Medora Clinic', address: '', phone: '', timeZone: 'Europe/Berlin' },
    jobs: store,
  };
  return { deps, jobs, begun, release: () => (held = false) };
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
});
