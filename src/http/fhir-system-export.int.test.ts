import assert from 'node:assert/strict';
import type { Appointment, Resource } from '@medplum/fhirtypes';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, seedDemo } from '../demo/seed.ts';
import type { BulkManifest } from '../domain/fhir/bulk-files.ts';
import { startExportWorker } from '../fhir-export-worker.ts';
import type { LeaseWorker } from '../outbox/lease-worker.ts';
import { referencesIn } from '../domain/fhir/references.ts';
import { present } from '../testing/assert.ts';
import { danglingReferences } from '../testing/fhir.ts';
import { assertValidFhir } from '../testing/fhir-validate.ts';
import { fixedClock, signIn, signUpAdmin, startTestServer, type TestServer } from '../testing/http.ts';
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

    before(async () => {
      server = await startTestServer(target, { clock: fixedClock(NOW) });
      await seedDemo(server.app, server.db);
      for (const { role, email } of DEMO_ACCOUNTS) tokens.set(role, (await signIn(server, email, DEMO_PASSWORD)).token);
      admin = present(tokens.get('admin'), 'the admin');
      worker = startExportWorker(
        server.app,
        server.db,
        { outboxPollMs: 50, outboxLeaseMs: 5000, exportPauseMs: 0 },
        () => {},
      );
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

    it('cancels a job on DELETE (202), after which its status and files are gone; another admin never sees it', async () => {
      const statusUrl = await kickOff('?_type=Patient');
      const manifest = await manifestOf(statusUrl, admin);
      const other = await signUpAdmin(server);
      assert.equal((await get(statusUrl, other.token)).status, 404);
      assert.equal((await get(statusUrl, admin, 'DELETE')).status, 202);
      assert.equal((await get(statusUrl, admin)).status, 404);
      assert.equal((await get(present(manifest.output[0], 'the file').url, admin)).status, 404);
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
