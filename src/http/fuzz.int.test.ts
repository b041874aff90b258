import { after, before, describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { contract } from '../testing/contract.ts';
import { PASSWORD, signIn, signUpAdmin, startTestServer, uniqueEmail, type TestServer } from '../testing/http.ts';
import { clinicFixtures } from '../testing/records-fixtures.ts';
import { nastyNumber, SchemaArbitraries } from '../testing/schema-arbitrary.ts';
import { testDatabases } from '../testing/test-db.ts';
import type { Schema } from './openapi/schema.ts';

// Enough generated requests to reach every operation several times; FUZZ_RUNS=3000 (or more) for a longer run.
const RUNS = Number(process.env.FUZZ_RUNS ?? 600);

// Signing out (here or everywhere) or changing the password would only end the fuzzing sessions.
const SPARED = new Set(['POST /api/logout', 'POST /api/logout/everywhere', 'PUT /api/user/password']);

const ROLES = ['admin', 'doctor', 'patient', 'reception'] as const;
type Caller = (typeof ROLES)[number] | 'none' | 'forged';

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  schema: Schema;
}

/** One operation of the document, as the requests for it are generated. */
interface Operation {
  method: string;
  path: string;
  access: unknown;
  parameters: Parameter[];
  json?: Schema;
  multipart?: Schema;
}

/** A request body as generated: JSON or other text, or multipart fields. */
type Body = { type: string; text: string } | { form: [string, string | Uint8Array][] } | undefined;

/** Bodies no schema describes: text that is not JSON, JSON of the wrong shape, multipart without its parts. */
const malformedBody = fc.constantFrom<Body>(
  { type: 'application/json', text: '{"name": ' },
  { type: 'application/json', text: '[1, 2, 3]' },
  { type: 'application/json', text: '"just a string"' },
  { type: 'application/json', text: '{"email": "a\\u0000@b.c", "password": "\\ud800"}' },
  { type: 'text/plain', text: 'hello' },
  { type: 'multipart/form-data; boundary=xyz', text: '--xyz\r\nbroken' },
  { type: 'multipart/form-data', text: 'no boundary at all' },
  { type: 'application/x-www-form-urlencoded', text: 'name=%00&email=%ZZ&cost=-1' },
  { type: 'application/octet-stream', text: '\u0000\u0001\u0002' },
);
/** Path segments no id or token looks like: bad escapes, a lone surrogate's bytes, dots, huge and odd numbers. */
const junkSegment = fc.oneof(
  nastyNumber.map(String),
  fc.constantFrom('%ZZ', '%00', '%ED%A0%80', '%', 'abc', '1.5', '-0', '1e3', '%F0%9F%98%80', '..', '0x10', '%201'),
  fc.string().map(encodeSafely),
);
const headerValue = fc.stringMatching(/^[\x21-\x7e]{1,60}$/);

function encodeSafely(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return '%ED%A0%80'; // the UTF-8 of a lone surrogate, which no decoder accepts
  }
}

const text = (value: unknown) => (typeof value === 'string' ? value : (JSON.stringify(value) ?? ''));

function operationsOf(document: ReturnType<typeof contract>['document']): Operation[] {
  return Object.entries(document.paths).flatMap(([path, byMethod]) =>
    Object.entries(byMethod).map(([method, operation]) => {
      const content = (operation.requestBody as { content?: Record<string, { schema: Schema }> } | undefined)?.content;
      return {
        method: method.toUpperCase(),
        path,
        access: operation['x-medora-access'],
        parameters: (operation.parameters as Parameter[] | undefined) ?? [],
        json: content?.['application/json']?.schema,
        multipart: content?.['multipart/form-data']?.schema,
      };
    }),
  );
}

/** Who may call: mostly a caller the operation allows, now and then anyone, nobody or a forged token. */
function callerFor(access: unknown): fc.Arbitrary<Caller> {
  const allowed: Caller[] =
    access === 'public' ? ['none'] : access === 'user' ? [...ROLES] : ([access].flat() as Caller[]);
  return fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...allowed) },
    { weight: 1, arbitrary: fc.constantFrom<Caller>('none', 'forged', ...ROLES) },
  );
}

/** A request for `operation` from its schemas: parameters and body mostly well-shaped, here and there wrong. */
function requestFor(operation: Operation, schemas: SchemaArbitraries) {
  const ofKind = (kind: Parameter['in']) => operation.parameters.filter((parameter) => parameter.in === kind);
  const pathValues = fc.tuple(
    ...ofKind('path').map(({ schema }) =>
      fc.oneof(
        { weight: 3, arbitrary: schemas.valid(schema).map((value) => encodeSafely(text(value))) },
        { weight: 1, arbitrary: junkSegment },
      ),
    ),
  );
  const query = fc.tuple(
    ...ofKind('query').map(({ name, schema }) =>
      fc.option(fc.tuple(fc.constant(name), schemas.mixed(schema).map(text)), { freq: 2 }),
    ),
  );
  const headers = fc.tuple(
    ...ofKind('header').map(({ name }) => fc.option(fc.tuple(fc.constant(name), headerValue), { freq: 3 })),
  );
  const body: fc.Arbitrary<Body> = operation.json
    ? fc.oneof(
        {
          weight: 6,
          arbitrary: schemas
            .mixed(operation.json)
            .map((value) => ({ type: 'application/json', text: JSON.stringify(value) })),
        },
        { weight: 1, arbitrary: malformedBody },
      )
    : operation.multipart
      ? fc.oneof(
          { weight: 4, arbitrary: formOf(operation.multipart, schemas) },
          { weight: 1, arbitrary: malformedBody },
        )
      : operation.method === 'GET'
        ? fc.constant(undefined)
        : fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: malformedBody });
  // HEAD is answered wherever GET is, with the same status.
  const method =
    operation.method === 'GET'
      ? fc.oneof({ weight: 9, arbitrary: fc.constant('GET') }, { weight: 1, arbitrary: fc.constant('HEAD') })
      : fc.constant(operation.method);
  return fc.record({ method, caller: callerFor(operation.access), pathValues, query, headers, body });
}

/** Multipart fields from the schema's properties: text as text, a binary field as random bytes. */
function formOf(schema: Schema, schemas: SchemaArbitraries): fc.Arbitrary<Body> {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const binary = new Set(Object.keys(properties).filter((name) => properties[name]?.contentEncoding === 'binary'));
  return schemas
    .mixed(schema)
    .chain((value) => {
      const fields = Object.entries(value && typeof value === 'object' ? value : {});
      return fc.tuple(
        ...fields.map(([name, field]) =>
          (binary.has(name) ? fc.uint8Array({ maxLength: 64 }) : fc.constant(text(field))).map(
            (part) => [name, part] as [string, string | Uint8Array],
          ),
        ),
      );
    })
    .map((form) => ({ form }));
}

function describeBody(body: Body): string {
  if (!body) return 'no body';
  if ('form' in body)
    return `multipart ${JSON.stringify(body.form.map(([name, part]) => [name, typeof part === 'string' ? part.slice(0, 80) : `${part.length} bytes`]))}`;
  return `${body.type} ${body.text.slice(0, 200)}`;
}

for (const target of testDatabases('one')) {
  describe(`requests generated from the OpenAPI document on ${target.name}`, () => {
    let server: TestServer;
    let tokens: Record<Caller, string | undefined>;
    before(async () => {
      server = await startTestServer(target);
      const clinic = clinicFixtures(server);
      const admin = await signUpAdmin(server);
      const doctor = await clinic.doctor();
      const patient = await clinic.patient();
      await clinic.disease('Influenza');
      const today = new Date().toISOString().slice(0, 10);
      await clinic.appointment({ doctor, patientId: patient.patientId, date: today });
      const receptionEmail = uniqueEmail('reception');
      await server.api('POST', '/api/admin/receptionists', {
        token: admin.token,
        body: { name: 'Rita Reception', email: receptionEmail, password: PASSWORD },
      });
      await server.api('POST', '/api/admin/departments', {
        token: admin.token,
        body: { name: 'Cardiology', description: 'Hearts' },
      });
      tokens = {
        none: undefined,
        forged: 'not-a-real-token',
        admin: admin.token,
        doctor: doctor.token,
        patient: patient.token,
        reception: (await signIn(server, receptionEmail)).token,
      };
    });
    after(() => server.close());

    it(`answers about ${RUNS} requests made from the document, every operation in each round, with no 5xx, every error in the error body, every answer as the document says`, async (t) => {
      const checker = contract();
      const schemas = new SchemaArbitraries(
        (ref) => checker.document.components.schemas[ref.replace('#/components/schemas/', '')] ?? {},
        new Date(),
      );
      const operations = operationsOf(checker.document).filter(
        (operation) => !SPARED.has(`${operation.method} ${operation.path}`),
      );
      const seen = new Set<string>();
      const statuses = new Map<number, number>();
      // A round sends one generated request to every operation, so each is tried however few the runs.
      const round = fc.tuple(
        ...operations.map((operation) =>
          requestFor(operation, schemas).map((generated) => ({ operation, ...generated })),
        ),
      );
      type Generated = typeof round extends fc.Arbitrary<(infer R)[]> ? R : never;
      const send = async ({ operation, method, caller, pathValues, query, headers, body }: Generated) => {
        let i = 0;
        const path = operation.path.replace(/\{\w+\}/g, () => pathValues[i++] ?? '1');
        const search = query.flatMap((pair) => (pair ? [`${pair[0]}=${encodeSafely(pair[1])}`] : [])).join('&');
        const url = `${server.url}${path}${search ? `?${search}` : ''}`;
        const token = tokens[caller];
        const form = body && 'form' in body ? new FormData() : undefined;
        for (const [name, part] of form && body && 'form' in body ? body.form : [])
          form?.append(name, typeof part === 'string' ? part : new Blob([Buffer.from(part)]));
        const res = await fetch(url, {
          method,
          headers: {
            ...Object.fromEntries(headers.flatMap((pair) => (pair ? [pair] : []))),
            ...(token ? { authorization: `Bearer ${token}` } : {}),
            ...(body && 'type' in body ? { 'content-type': body.type } : {}),
          },
          body: form ?? (body && 'text' in body ? body.text : undefined),
        });
        const answer = await res.text();
        seen.add(`${operation.method} ${operation.path}`);
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        const context = `${method} ${path}${search ? `?${search}` : ''} as ${caller} with ${describeBody(body)} → ${res.status} ${answer.slice(0, 300)}`;
        const complaint = server.contract.take(res.headers.get('x-request-id'));
        if (complaint) throw new assert.AssertionError({ message: `${context}\n${complaint.message}` });
        assert.ok(res.status < 500, context);
        if (res.status >= 400 && method !== 'HEAD')
          assert.equal(checker.errorBodyProblems(JSON.parse(answer)), undefined, context);
      };
      await fc.assert(
        fc.asyncProperty(round, async (requests) => {
          for (const request of requests) await send(request);
        }),
        { numRuns: Math.ceil(RUNS / operations.length) },
      );
      t.diagnostic(
        `${[...statuses.values()].reduce((sum, n) => sum + n, 0)} requests over ${seen.size} operations; ${[...statuses]
          .sort(([a], [b]) => a - b)
          .map(([status, count]) => `${status}×${count}`)
          .join(' ')}`,
      );
      assert.deepEqual(
        operations.map((operation) => `${operation.method} ${operation.path}`).filter((key) => !seen.has(key)),
        [],
        'every operation was tried',
      );
      assert.equal((await server.api('GET', '/api/health/ready')).status, 200);
      assert.equal((await server.api('GET', '/api/doctors', { token: tokens.patient })).status, 200);
    });
  });
}
