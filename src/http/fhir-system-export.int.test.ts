import assert from 'node:assert/strict';
import type { Appointment, Bundle, OperationOutcome, Resource } from '@medplum/fhirtypes';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, seedDemo } from '../demo/seed.ts';
import type { BulkManifest } from '../domain/fhir/bulk-files.ts';
import { startExportWorker } from '../fhir-export-worker.ts';
import type { LeaseWorker } from '../outbox/lease-worker.ts';
import { referencesIn } from '../domain/fhir/references.ts';
import { present } from '../testing/assert.ts';
import { danglingReferences, fhirClient } from '../testing/fhir.ts';
import { readBulkZip } from '../testing/fhir-bulk.ts';
import { assertValidFhir } from '../testing/fhir-validate.ts';
import { signIn, signUpAdmin, startTestServer, type TestServer } from '../testing/http.ts';
import { movableClock } from '../testing/scheduling-fakes.ts';
import { after, before, describe, it } from '../testing/node-test.ts';
import { testDatabases } from '../testing/test-db.ts';

const NOW = '2026-06-13T09:00:00Z';

const get = (url: string, token?: string, method = 'GET') =>
  fetch(url, {
    method,
    headers: { accept: 'application/fhir+json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });

/** Polls the status URL until the job is done; answers the manifest. */
async function manifestOf(statusUrl: string, token: string): Promise<BulkManifest> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const res = await get(statusUrl, token);
    if (res.status === 200) return (await res.json()) as BulkManifest;
    assert.equal(res.status, 202, await res.text());
    assert.match(present(res.headers.get('x-progress'), 'X-Progress'), /^\d+ of \d+ types$/);
    assert.ok(Date.now() < deadline, 'the export finished in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Every file's resources, each line read back, by type. */
async function filesOf(manifest: BulkManifest, token: string): Promise<Map<string, Resource[]>> {
  const files = new Map<string, Resource[]>();
  for (const { type, url, count } of manifest.output) {
    const res = await get(url, token);
    assert.equal(res.status, 200, url);
    assert.equal(res.headers.get('content-type'), 'application/fhir+ndjson');
    const lines = (await res.text()).split('\n').filter(Boolean);
    assert.equal(lines.length, count, `${type}'s count`);
    files.set(
      type,
      lines.map((line) => JSON.parse(line) as Resource),
    );
  }
  return files;
}

for (const target of testDatabases('one')) {
  describe(`the system export ($export) on ${target.name}`, () => {
    let server: TestServer;
    let worker: LeaseWorker;
    const tokens = new Map<string, string>();
    let admin: string;
    // Fixed, but for the expiry test, which moves it a day on and back.
    const clock = movableClock(NOW);
    /** A worker as `medora serve` runs one; `exportPauseMs` pauses it after each type. */
    const startWorker = (exportPauseMs = 0) =>
      startExportWorker(server.app, server.db, { outboxPollMs: 50, outboxLeaseMs: 5000, exportPauseMs }, () => {});

    before(async () => {
      server = await startTestServer(target, { clock });
      await seedDemo(server.app, server.db);
      for (const { role, email } of DEMO_ACCOUNTS) tokens.set(role, (await signIn(server, email, DEMO_PASSWORD)).token);
      admin = present(tokens.get('admin'), 'the admin');
      worker = startWorker();
    });
    after(async () => {
      await worker?.stop();
      await server?.close();
    });

    const kickOff = async (query = '', token = admin) => {
      const res = await get(`${server.url}/fhir/R4/$export${query}`, token);
      assert.equal(res.status, 202, await res.clone().text());
      await res.body?.cancel();
      return present(res.headers.get('content-location'), 'Content-Location');
    };

    it('writes every resource of the clinic as valid R4 NDJSON, one file per type at absolute URLs, self-contained', async () => {
      const statusUrl = await kickOff();
      assert.match(statusUrl, new RegExp(`^${server.url}/fhir/R4/\\$export-status/\\d+$`));
      const manifest = await manifestOf(statusUrl, admin);
      assert.equal(manifest.requiresAccessToken, true);
      assert.equal(manifest.request, `${server.url}/fhir/R4/$export`);
      assert.deepEqual(manifest.error, []);
      for (const { url } of manifest.output) assert.ok(url.startsWith(`${server.url}/fhir/R4/`), url);
      const files = await filesOf(manifest, admin);
      for (const type of ['Patient', 'Practitioner', 'Appointment', 'Encounter', 'Observation', 'Slot'])
        assert.ok(files.has(type), `${type} is exported`);
      const all = [...files.values()].flat();
      for (const resource of all) assertValidFhir(resource);
      for (const [type, resources] of files) for (const r of resources) assert.equal(r.resourceType, type);
      // Self-contained: every reference of every line, the Slots of today's visits and of those fitted in included.
      assert.deepEqual(danglingReferences(all), []);
      const referred = new Set(all.flatMap((r) => referencesIn(r).map(({ type }) => type)));
      for (const type of ['Practitioner', 'Organization', 'Location', 'Schedule', 'Slot', 'Patient'])
        assert.ok(referred.has(type), `the walk met references to ${type}`);
      // Today's visit (the desk checked one in on this Saturday, in a Monday slot) has its slot written.
      const slots = new Set(present(files.get('Slot'), 'the Slots').map((slot) => `Slot/${slot.id}`));
      const today = (present(files.get('Appointment'), 'the Appointments') as Appointment[]).filter((a) =>
        a.start?.startsWith(NOW.slice(0, 10)),
      );
      assert.ok(today.length > 0, 'the demo has a visit today');
      for (const visit of today)
        for (const slot of visit.slot ?? []) assert.ok(slots.has(present(slot.reference, 'a slot')), slot.reference);
      // A file is the admin's: without the token it is not read.
      assert.equal((await get(present(manifest.output[0], 'a file').url)).status, 401);
    });

    it("keeps every demo patient's $everything and its ZIP self-contained, for the patient, the doctor and an admin", async () => {
      const fhir = fhirClient(server);
      const entries = (bundles: Bundle[]) =>
        bundles.flatMap((b) => (b.entry ?? []).flatMap((e) => (e.resource ? [e.resource] : [])));
      const patients = await server.db.query<{ id: number; email: string }>(
        'select p.id, u.email from patients p join users u on u.id = p.user_id order by p.id',
      );
      const demo = present(
        patients.find((p) => p.email === 'patient@medora.test'),
        'the demo patient',
      );
      const readers: [string, number][] = [
        ...patients.map(({ id }): [string, number] => ['admin', id]),
        ['patient', demo.id],
        ['doctor', demo.id],
      ];
      const types = new Set<string>();
      for (const [role, patientId] of readers) {
        const token = present(tokens.get(role), role);
        const zip = await fetch(`${server.url}/fhir/R4/Patient/${patientId}/$everything?_format=application/zip`, {
          headers: { authorization: `Bearer ${token}` },
        });
        assert.equal(zip.status, 200);
        const zipped = Object.values((await readBulkZip(new Uint8Array(await zip.arrayBuffer()))).files).flat();
        assert.deepEqual(danglingReferences(zipped), [], `the ZIP of Patient/${patientId} as ${role}`);
        for (const r of zipped) types.add(r.resourceType);
        if (patientId !== demo.id || role === 'admin') continue;
        // The paged bundles (each validated by the client) hold the same, self-contained.
        const bundles = await fhir.pages(`/Patient/${patientId}/$everything?_count=500`, token);
        const resources = entries(bundles).filter((r) => r.resourceType !== 'OperationOutcome');
        assert.deepEqual(danglingReferences(resources), [], `$everything of Patient/${patientId} as ${role}`);
      }
      // The walk met the clinical types of the lab, vital signs and medicines, and the directory they refer to.
      for (const type of [
        'Practitioner',
        'PractitionerRole',
        'Organization',
        'Location',
        'Schedule',
        'Slot',
        'Encounter',
        'ServiceRequest',
        'Specimen',
        'Observation',
        'DiagnosticReport',
        'Medication',
        'MedicationRequest',
        'MedicationAdministration',
        'AllergyIntolerance',
      ])
        assert.ok(types.has(type), `${type} is in the demo's records`);
    });

    it('honours _type and _since, and refuses a type it does not export', async () => {
      const typed = await manifestOf(await kickOff('?_type=Patient,Practitioner'), admin);
      assert.deepEqual(
        typed.output.map((o) => o.type),
        ['Patient', 'Practitioner'],
      );
      const later = await manifestOf(await kickOff('?_type=Patient&_since=2100-01-01T00:00:00Z'), admin);
      assert.deepEqual(later.output, []);
      const bad = await get(`${server.url}/fhir/R4/$export?_type=Nonsense`, admin);
      assert.equal(bad.status, 400);
      assert.equal(((await bad.json()) as Resource).resourceType, 'OperationOutcome');
    });

    it('deletes a finished job on DELETE (202), after which its status and files are gone; another admin never sees it', async () => {
      const statusUrl = await kickOff('?_type=Patient');
      const manifest = await manifestOf(statusUrl, admin);
      const other = await signUpAdmin(server);
      assert.equal((await get(statusUrl, other.token)).status, 404);
      assert.equal((await get(statusUrl, admin, 'DELETE')).status, 202);
      assert.equal((await get(statusUrl, admin)).status, 404);
      assert.equal((await get(present(manifest.output[0], 'the file').url, admin)).status, 404);
    });

    it('cancels a running job on DELETE (202): its worker stops and nothing of it is left', async () => {
      // A worker that pauses after each type holds the job half done while the test cancels it.
      await worker.stop();
      const paused = startWorker(600_000);
      try {
        const statusUrl = await kickOff();
        const id = Number(statusUrl.split('/').at(-1));
        const deadline = Date.now() + 60_000;
        let progress = '';
        while (!progress.startsWith('1 of') && Date.now() < deadline) {
          const res = await get(statusUrl, admin);
          assert.equal(res.status, 202, 'still running');
          progress = res.headers.get('x-progress') ?? '';
          if (!progress.startsWith('1 of')) await new Promise((resolve) => setTimeout(resolve, 50));
        }
        assert.match(progress, /^1 of \d+ types$/, 'the job is running, one type written');
        assert.equal((await get(statusUrl, admin, 'DELETE')).status, 202);
        const gone = await get(statusUrl, admin);
        assert.equal(gone.status, 404);
        assert.equal(((await gone.json()) as Resource).resourceType, 'OperationOutcome');
        await paused.stop();
        const left = await server.db.query<{ n: number }>(
          `select (select count(*) from fhir_export_jobs where id = $1)
                + (select count(*) from fhir_export_files where job_id = $1)
                + (select count(*) from fhir_export_chunks where job_id = $1) as n`,
          [id],
        );
        assert.equal(Number(left[0]?.n), 0);
        const [audited] = await server.db.query<{ n: number }>(
          `select count(*)::int as n from audit_log where action = 'export_system_cancel' and entity_id = $1`,
          [String(id)],
        );
        assert.equal(audited?.n, 1);
      } finally {
        await paused.stop();
        worker = startWorker();
      }
    });

    it('keeps a finished job EXPORT_RETENTION_HOURS (24 h), says so in Expires, then deletes its files and answers 404 saying it expired', async (t) => {
      t.after(() => clock.set(NOW));
      const statusUrl = await kickOff('?_type=Patient,Organization');
      const id = Number(statusUrl.split('/').at(-1));
      const manifest = await manifestOf(statusUrl, admin);
      const answer = await get(statusUrl, admin);
      assert.equal(answer.status, 200);
      // Finished at the clock's now, kept a day.
      assert.equal(answer.headers.get('expires'), 'Sun, 14 Jun 2026 09:00:00 GMT');
      await answer.body?.cancel();
      const fileUrl = present(manifest.output[0], 'a file').url;

      // A day on, the admin signs in again (a session does not last a day idle).
      const signInAt = async (at: string) => {
        clock.set(at);
        return (await signIn(server, 'admin@medora.test', DEMO_PASSWORD)).token;
      };
      let token = await signInAt('2026-06-14T08:59:59Z');
      await worker.runOnce();
      assert.equal((await get(statusUrl, token)).status, 200, 'kept to the last second');
      assert.equal((await get(fileUrl, token)).status, 200);

      const expired = async (url: string, method = 'GET') => {
        const res = await get(url, token, method);
        assert.equal(res.status, 404, `${method} ${url}`);
        const outcome = (await res.json()) as OperationOutcome;
        assertValidFhir(outcome);
        assert.match(
          present(outcome.issue[0]?.diagnostics, 'diagnostics'),
          new RegExp(`^Export ${id} expired at 2026-06-14T09:00:00.000Z and its files were deleted`),
        );
      };
      token = await signInAt('2026-06-14T09:00:00Z');
      // From the moment it expires, before the worker's next round.
      await expired(statusUrl);
      await expired(fileUrl);
      await worker.runOnce();
      const [job] = await server.db.query<{ status: string; files: number; chunks: number }>(
        `select status, (select count(*)::int from fhir_export_files where job_id = $1) as files,
                (select count(*)::int from fhir_export_chunks where job_id = $1) as chunks
         from fhir_export_jobs where id = $1`,
        [id],
      );
      assert.deepEqual(job, { status: 'expired', files: 0, chunks: 0 });
      const audit = await server.db.query<{ actor_user_id: number | null; details: unknown }>(
        `select actor_user_id, details from audit_log where action = 'export_system_expire' and entity_id = $1`,
        [String(id)],
      );
      assert.deepEqual(audit, [{ actor_user_id: null, details: { retentionHours: 24 } }]);
      await expired(statusUrl);
      await expired(fileUrl);
      await expired(statusUrl, 'DELETE');
    });

    it('answers every $export route to each identity as its access says: admins only', async () => {
      const statusUrl = await kickOff('?_type=Organization');
      const manifest = await manifestOf(statusUrl, admin);
      const fileUrl = present(manifest.output[0], 'the file').url;
      const routes: [string, string, number][] = [
        ['GET', `${server.url}/fhir/R4/$export`, 202],
        ['GET', statusUrl, 200],
        ['GET', fileUrl, 200],
        ['DELETE', statusUrl, 202],
      ];
      for (const [method, url, status] of routes) {
        assert.equal((await get(url, undefined, method)).status, 401, `${method} ${url} signed out`);
        for (const role of ['doctor', 'patient', 'reception', 'lab'])
          assert.equal((await get(url, tokens.get(role), method)).status, 403, `${method} ${url} as ${role}`);
        const res = await get(url, admin, method);
        assert.equal(res.status, status, `${method} ${url} as admin`);
        await res.body?.cancel();
      }
    });

    it('lists $export in the CapabilityStatement', async () => {
      const statement = (await (await get(`${server.url}/fhir/R4/metadata`)).json()) as {
        rest: { operation?: { name: string }[] }[];
      };
      assert.ok(statement.rest[0]?.operation?.some((o) => o.name === 'export'));
    });
  });
}
