import assert from 'node:assert/strict';
import { after, before, describe, it } from '../testing/node-test.ts';
import { fixedClock, signIn, startTestServer, type TestServer } from '../testing/http.ts';
import { readBulkZip } from '../testing/fhir-bulk.ts';
import { testDatabases } from '../testing/test-db.ts';
import { DEMO_PASSWORD, seedDemo } from '../demo/seed.ts';
import { escapeHtml } from '../domain/notifications/message.ts';
import type { PatientVisitJson } from '../domain/patients/patients-shapes.ts';
import type { BillingJson } from '../domain/billing/billing-shapes.ts';
import type { AdmissionDetailJson } from '../domain/inpatient/inpatient-shapes.ts';

for (const target of testDatabases('one')) {
  describe(`"Download my data" for the demo patient on ${target.name}`, () => {
    let server: TestServer;
    let token: string;
    let patientId: number;
    before(async () => {
      server = await startTestServer(target, { clock: fixedClock('2026-06-13T09:00:00Z') });
      await seedDemo(server.app, server.db);
      ({ token } = await signIn(server, 'patient@medora.test', DEMO_PASSWORD));
      patientId = (await server.api('GET', '/api/patient/profile', { token })).body.patient.id;
    });
    after(() => server.close());

    /** The patient's own download, asked for once: the tests below read the same export, none changes the data. */
    let downloaded: ReturnType<typeof readBulkZip> | undefined;
    const download = () => {
      downloaded ??= (async () => {
        const res = await fetch(`${server.url}/fhir/R4/Patient/${patientId}/$everything?_format=zip`, {
          headers: { authorization: `Bearer ${token}` },
        });
        assert.equal(res.status, 200);
        return readBulkZip(new Uint8Array(await res.arrayBuffer()));
      })();
      return downloaded;
    };

    it('holds in index.html every visit, record version, stay, bill and payment My Records, My stays and My bills show', async () => {
      const zip = await download();
      const html = zip.text('index.html');
      const shows = (text: string, what: string) =>
        assert.ok(html.includes(escapeHtml(text)), `${what} "${text}" is in index.html`);
      const { records } = (await server.api<{ records: PatientVisitJson[] }>('GET', '/api/patient/records', { token }))
        .body;
      assert.ok(records.length > 0 && records.some((r) => r.amended), 'the demo has visits, one amended');
      for (const visit of records) {
        shows(visit.doctor.name, 'the doctor');
        for (const version of visit.history) {
          for (const text of [version.diagnosis, version.prescriptions, version.lab_tests]) shows(text, 'a version');
          if (version.reason) shows(version.reason, 'an amendment reason');
        }
      }
      const { admissions } = (
        await server.api<{ admissions: AdmissionDetailJson[] }>('GET', '/api/patient/admissions', { token })
      ).body;
      for (const stay of admissions) {
        shows(stay.ward.name, 'the ward');
        const summary = stay.discharge_summary;
        if (summary)
          for (const text of [summary.diagnosis, summary.medication, summary.instructions]) shows(text, 'a summary');
      }
      const bills = (
        await server.api<{ billings: BillingJson[] }>('GET', '/api/patient/billings?per_page=200', { token })
      ).body.billings;
      assert.ok(bills.length > 0);
      for (const bill of bills) shows(bill.bill_number, 'a bill');
      assert.equal(
        html.match(/<h3>/g)?.length ?? 0,
        records.length + admissions.length + 1,
        'a heading per visit and per stay, and the payments',
      );
      assert.doesNotMatch(html, /<script|<link|src=/, 'self-contained');
    });

    it('carries the demo\'s "amlodipine" in both its readable and its FHIR parts', async () => {
      const zip = await download();
      assert.match(zip.text('index.html'), /amlodipine/);
      const fhirText = Object.values(zip.files)
        .flat()
        .map((resource) => JSON.stringify(resource))
        .join('\n');
      assert.match(fhirText, /amlodipine/);
    });

    it('leaves index.html out of an export staff download', async () => {
      const admin = await signIn(server, 'admin@medora.test', DEMO_PASSWORD);
      const res = await fetch(`${server.url}/fhir/R4/Patient/${patientId}/$everything?_format=zip`, {
        headers: { authorization: `Bearer ${admin.token}` },
      });
      assert.equal(res.status, 200);
      const zip = await readBulkZip(new Uint8Array(await res.arrayBuffer()));
      assert.ok(!zip.names.includes('index.html'));
    });
  });
}
