import { after, before, describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { startTestServer, signUpPatient, type TestServer } from '../testing/http.ts';
import { only } from '../testing/assert.ts';
import { testDatabases } from '../testing/test-db.ts';
import { fhirSystems } from './fhir-answers.ts';

/** GET `path` with `host` as the Host header, as a client that reached the server by another name (or forged it). */
/** The parts of a FHIR answer these tests read. */
interface FhirAnswer {
  identifier: { system: string }[];
  url?: string;
}

function getWithHost(
  server: TestServer,
  path: string,
  host: string,
  token: string,
): Promise<{ status: number; body: FhirAnswer }> {
  const url = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, path, headers: { host, authorization: `Bearer ${token}` } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

for (const target of testDatabases('one')) {
  describe('FHIR identifier and code systems without PUBLIC_URL', () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer(target);
    });
    after(() => server?.close());

    it("names a patient's identifier system the same however the server was reached, and never by the request's Host", async () => {
      const patient = await signUpPatient(server);
      const patientId = only(
        await server.db.query<{ id: number }>('select id from patients where user_id = $1', [patient.user.id]),
      ).id;
      const systems = new Set<string>();
      for (const host of [new URL(server.url).host, 'localhost:3000', 'evil.example']) {
        const read = await getWithHost(server, `/fhir/R4/Patient/${patientId}`, host, patient.token);
        assert.equal(read.status, 200, JSON.stringify(read.body));
        for (const identifier of read.body.identifier) systems.add(identifier.system);
        assert.doesNotMatch(JSON.stringify(read.body), /evil\.example/);
      }
      assert.deepEqual([...systems], ['urn:medora:fhir/NamingSystem/patient-id']);

      const codeSystem = await getWithHost(server, '/fhir/R4/CodeSystem/disease', 'evil.example', patient.token);
      assert.equal(codeSystem.body.url, 'urn:medora:fhir/CodeSystem/disease');
    });

    it("names them under PUBLIC_URL's FHIR base when it is set", () => {
      assert.equal(fhirSystems('https://clinic.example.org'), 'https://clinic.example.org/fhir/R4');
      assert.equal(fhirSystems(undefined), 'urn:medora:fhir');
    });
  });
}
