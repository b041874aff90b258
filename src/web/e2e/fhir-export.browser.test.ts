import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { describe, it } from '../../testing/node-test.ts';
import { readBulkZip } from '../../testing/fhir-bulk.ts';
import { openSignedInPage, serverAndBrowserPerSuite, settled, type TestServer } from './harness.ts';
import { registerPatient, seedClinic, type Clinic } from './seed.ts';
import { routes, withId } from '../paths.ts';

describe("downloading a patient's data in the browser", () => {
  let server: TestServer;
  let browser: Browser;
  let clinic: Clinic;
  let patient: { email: string; name: string; patientId: number };

  serverAndBrowserPerSuite(async (started, launched) => {
    server = started;
    browser = launched;
    clinic = await seedClinic(server);
    const account = await registerPatient(server, 'Dora Download');
    const me = (await server.api('GET', '/api/patient/profile', { token: account.token })).body;
    patient = { email: account.email, name: account.name, patientId: me.patient.id };
  });

  /** Clicks `button`, waits for the file, and reads it back as a Bulk Data ZIP, every line validated as R4. */
  async function download(page: Page, button: string) {
    const [file] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: button }).click(),
    ]);
    assert.equal(file.suggestedFilename(), `patient-${patient.patientId}.zip`);
    return readBulkZip(await readFile(await file.path()));
  }

  const exportsAudited = async () =>
    (
      await server.db.query<{ actor_role: string }>(
        `select actor_role from audit_log where action = 'export' and entity_id = $1 order by id`,
        [String(patient.patientId)],
      )
    ).map((row) => row.actor_role);

  it('gives the patient their record from My Records as a ZIP of valid FHIR NDJSON, and audits it', async () => {
    const { page, problems } = await openSignedInPage(browser, server, patient.email);
    await page.getByRole('link', { name: 'My Records' }).click();
    await page.getByRole('heading', { name: 'My Records' }).waitFor();
    await settled(page);
    const zip = await download(page, 'Download my data');
    assert.deepEqual(zip.names, ['index.html', 'Patient.ndjson', 'manifest.json']);
    assert.match(zip.text('index.html'), /<h1>Health record of Dora Download<\/h1>/);
    assert.deepEqual(
      zip.files.Patient?.map((p) => [p.id, p.resourceType === 'Patient' && p.name?.[0]?.text]),
      [[String(patient.patientId), 'Dora Download']],
    );
    assert.deepEqual(await exportsAudited(), ['patient']);
    assert.deepEqual(problems, []);
  });

  it("lets an admin download it from the patient's overview", async () => {
    const { page, problems } = await openSignedInPage(browser, server, clinic.admin.email);
    await page.goto(withId(routes.admin.patientProfile, patient.patientId));
    await page.getByRole('heading', { name: 'Patient Overview' }).waitFor();
    await settled(page);
    const zip = await download(page, 'Download data');
    assert.deepEqual(
      zip.manifest.output.map((o) => [o.type, o.count]),
      [['Patient', 1]],
    );
    assert.deepEqual(await exportsAudited(), ['patient', 'admin']);
    assert.deepEqual(problems, []);
  });
});
