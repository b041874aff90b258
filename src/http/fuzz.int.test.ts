import { after, before, describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { cliActor } from '../domain/shared/actor.ts';
import { PASSWORD, signIn, signUpAdmin, signUpPatient, startTestServer, uniqueEmail, type TestServer } from '../testing/http.ts';
import { testDatabases } from '../testing/test-db.ts';
import { apiRoutes } from './routes.ts';

const RUNS_PER_DATABASE = 2400;

/** Values that have answered 500 before, or that a careless parser trips on. */
const nastyText = fc.oneof(
  fc.string(),
  fc.constantFrom('\u0000', 'a\u0000b', '\ud800', 'x\udfffy', '\ud83d', '%ZZ', '%', '../../etc/passwd', "'; drop table users; --", ' ', '', '2026-02-30', '24:61'),
  fc.string({ unit: 'binary' }),
  fc.string({ minLength: 300, maxLength: 2000 }),
);
const nastyNumber = fc.oneof(
  fc.integer(),
  fc.constantFrom(0, -1, 2147483647, 2147483648, -2147483649, Number.MAX_SAFE_INTEGER, 1e308, -1e308, 0.5, 1e-9),
  fc.double(),
);
const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: nastyText },
  { weight: 3, arbitrary: nastyNumber },
  { weight: 1, arbitrary: fc.constantFrom(null, true, false, [], {}, [1, 'a'], { nested: '\u0000' }) },
);

// The fields routes read, so generated bodies reach validation rather than stopping at "required".
const FIELDS = [
  'name', 'email', 'password', 'current_password', 'new_password', 'phone', 'birthdate', 'gender', 'address', 'description',
  'bio', 'department_id', 'specialization_id', 'disease_id', 'doctor_id', 'schedule_id', 'room_id', 'date', 'start_time',
  'end_time', 'diagnosis', 'prescriptions', 'lab_tests', 'service_type', 'cost', 'record_date', 'method', 'remember',
  'weekdays', 'slot_minutes', 'active', 'q', 'page', 'per_page',
];
const QUERY_KEYS = ['q', 'page', 'per_page', 'date', 'from', 'to', 'status', 'days', 'doctor_id', 'department_id'];

const jsonBody = fc.dictionary(fc.constantFrom(...FIELDS), nastyValue, { maxKeys: 8 });
const rawBody = fc.oneof(
  jsonBody.map((body) => ({ type: 'application/json', text: JSON.stringify(body) })),
  fc.constantFrom(
    { type: 'application/json', text: '{"name": ' },
    { type: 'application/json', text: '[1, 2, 3]' },
    { type: 'application/json', text: '"just a string"' },
    { type: 'application/json', text: '{"email": "a\\u0000@b.c", "password": "\\ud800"}' },
    { type: 'text/plain', text: 'hello' },
    { type: 'multipart/form-data; boundary=xyz', text: '--xyz\r\nbroken' },
    { type: 'multipart/form-data', text: 'no boundary at all' },
    { type: 'application/x-www-form-urlencoded', text: 'name=%00&email=%ZZ&cost=-1' },
    { type: 'application/octet-stream', text: '\u0000\u0001\u0002' },
  ),
);
const pathValue = fc.oneof(
  fc.integer({ min: 1, max: 30 }).map(String),
  nastyNumber.map(String),
  fc.constantFrom('%ZZ', '%00', '%ED%A0%80', '%', 'abc', '1.5', '-0', '1e3', '%F0%9F%98%80', '..', '0x10', ' 1'),
  fc.string().map(encodeURIComponentSafe),
);
const queryString = fc
  .array(fc.tuple(fc.constantFrom(...QUERY_KEYS), fc.oneof(nastyText, nastyNumber.map(String))), { maxLength: 4 })
  .map((pairs) => pairs.map(([k, v]) => `${k}=${encodeURIComponentSafe(v)}`).join('&'));

function encodeURIComponentSafe(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return '%ED%A0%80'; // the UTF-8 of a lone surrogate, which no decoder accepts
  }
}

for (const target of testDatabases()) {
  describe(`generated malformed requests on ${target.name}`, () => {
    let server: TestServer;
    let tokens: Record<string, string | undefined>;
    before(async () => {
      server = await startTestServer(target);
      const admin = await signUpAdmin(server);
      const doctorEmail = uniqueEmail('doctor');
      await server.app.doctors.createDoctor({ name: 'Dr. Fuzz', email: doctorEmail, password: PASSWORD }, cliActor('fuzz-test'));
      tokens = {
        none: undefined,
        admin: admin.token,
        doctor: (await signIn(server, doctorEmail)).token,
        patient: (await signUpPatient(server)).token,
        forged: 'not-a-real-token',
      };
    });
    after(() => server.close());

    it(`answers ${RUNS_PER_DATABASE} malformed requests over every route with no 5xx, and still serves`, async () => {
      // Signing out (here or everywhere) would only end the fuzzing sessions; every other route is fair game.
      const routes = apiRoutes(server.app).filter((route) => !route.path.startsWith('/api/logout'));
      const seen = new Set<string>();
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...routes),
          fc.constantFrom('none', 'admin', 'doctor', 'patient', 'forged'),
          fc.array(pathValue, { minLength: 3, maxLength: 3 }),
          queryString,
          rawBody,
          async (route, role, values, query, body) => {
            let i = 0;
            const path = route.path.replace(/\{\w+\}/g, () => values[i++] ?? '1');
            const token = tokens[role];
            const res = await fetch(`${server.url}${path}${query ? `?${query}` : ''}`, {
              method: route.method,
              headers: {
                ...(token ? { authorization: `Bearer ${token}` } : {}),
                ...(route.method === 'GET' ? {} : { 'content-type': body.type }),
              },
              body: route.method === 'GET' ? undefined : body.text,
            });
            const text = await res.text();
            seen.add(`${route.method} ${route.path}`);
            assert.ok(res.status < 500, `${route.method} ${path}?${query} as ${role} with ${body.type} ${body.text.slice(0, 200)} → ${res.status} ${text}`);
          },
        ),
        { numRuns: RUNS_PER_DATABASE },
      );
      assert.equal(seen.size, routes.length, 'every route was tried');
      assert.equal((await server.api('GET', '/api/health/ready')).status, 200);
      assert.equal((await server.api('GET', '/api/doctors', { token: tokens.patient })).status, 200);
    });
  });
}
