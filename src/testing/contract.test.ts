import assert from 'node:assert/strict';
import { describe, it } from './node-test.ts';
import { openApiDocument } from '../http/openapi/document.ts';
import { date, listOf, object, ref, string } from '../http/openapi/schema.ts';
import { Contract, type SeenAnswer } from './contract.ts';

const clinic = new Contract(
  openApiDocument([
    {
      tag: 'Clinic',
      description: 'A module made up for these tests',
      schemas: { Visit: object({ id: { type: 'integer' }, date: date(), doctor: ref('Named') }) },
      operations: {
        'GET /api/visits': {
          summary: 'Visits',
          access: 'user',
          query: { q: string() },
          answers: { 200: listOf('visits', ref('Visit')) },
        },
        'GET /api/visits/{id}': { summary: 'A visit', access: 'user', answers: { 200: ref('Visit'), 304: null } },
        'GET /api/visits/today': {
          summary: "Today's",
          access: 'user',
          answers: { 200: object({ count: { type: 'integer' } }) },
        },
        'GET /api/visits.csv': {
          summary: 'CSV',
          access: 'user',
          answers: { 200: { content: { 'text/csv': string() } } },
        },
      },
    },
  ]),
);

const visit = { id: 7, date: '2026-03-02', doctor: { id: 1, name: 'Dr. Grey' } };
const answer = (overrides: Partial<SeenAnswer>): SeenAnswer => ({
  method: 'GET',
  path: '/api/visits/7',
  status: 200,
  contentType: 'application/json; charset=utf-8',
  body: visit,
  ...overrides,
});

describe('the contract check', () => {
  it('accepts an answer that matches its operation, and names the operation', () => {
    assert.deepEqual(clinic.checkAnswer(answer({})), { operation: 'GET /api/visits/{id}' });
    assert.deepEqual(
      clinic.checkAnswer(
        answer({
          path: '/api/visits',
          body: { visits: [visit], total: 1, total_is_lower_bound: false, page: 1, per_page: 50 },
        }),
      ),
      { operation: 'GET /api/visits' },
    );
  });

  it('refuses a renamed field, naming the operation, the status and the field', () => {
    const { date: visitDate, ...rest } = visit;
    assert.throws(
      () => clinic.checkAnswer(answer({ body: { ...rest, visit_date: visitDate } })),
      (error: Error) => {
        assert.match(error.message, /GET \/api\/visits\/\{id\} \(GET \/api\/visits\/7\) answered 200/);
        assert.match(error.message, /must have required property 'date'/);
        assert.match(error.message, /additionalProperty":"visit_date"/);
        return true;
      },
    );
  });

  it('refuses a wrong type, a wrong format and a field nested in a shared shape', () => {
    assert.throws(() => clinic.checkAnswer(answer({ body: { ...visit, id: '7' } })), /\/id must be integer/);
    assert.throws(
      () => clinic.checkAnswer(answer({ body: { ...visit, date: '02/03/2026' } })),
      /\/date must match format "date"/,
    );
    assert.throws(
      () => clinic.checkAnswer(answer({ body: { ...visit, doctor: { id: 1 } } })),
      /\/doctor must have required property 'name'/,
    );
  });

  it('refuses a status the operation does not list, and accepts its standard errors with the error body', () => {
    assert.throws(() => clinic.checkAnswer(answer({ status: 202 })), /the status is not one the operation answers/);
    assert.deepEqual(
      clinic.checkAnswer(answer({ status: 404, body: { message: 'No such visit', code: 'not_found' } })),
      { operation: 'GET /api/visits/{id}' },
    );
    assert.throws(
      () => clinic.checkAnswer(answer({ status: 401, body: { message: 'Sign in', code: 'Not Snake' } })),
      /\/code must match pattern/,
    );
  });

  it('matches a literal path before a template, and answers HEAD as GET without a body', () => {
    assert.deepEqual(clinic.checkAnswer(answer({ path: '/api/visits/today', body: { count: 2 } })), {
      operation: 'GET /api/visits/today',
    });
    assert.deepEqual(clinic.checkAnswer(answer({ method: 'HEAD', body: undefined })), {
      operation: 'GET /api/visits/{id}',
    });
    assert.deepEqual(clinic.checkAnswer(answer({ status: 304, contentType: undefined, body: undefined })), {
      operation: 'GET /api/visits/{id}',
    });
  });

  it('checks the content type of other media', () => {
    assert.deepEqual(
      clinic.checkAnswer(
        answer({ path: '/api/visits.csv', contentType: 'text/csv; charset=utf-8', body: Buffer.from('id\n7\n') }),
      ),
      { operation: 'GET /api/visits.csv' },
    );
    assert.throws(
      () => clinic.checkAnswer(answer({ path: '/api/visits.csv' })),
      /the content type application\/json is not one the document gives/,
    );
  });

  it('checks an unknown route against the error body, and tells a route the document lacks from one', () => {
    const unknown = answer({
      path: '/api/nothing',
      status: 404,
      body: { message: 'No API route /api/nothing', code: 'not_found' },
    });
    assert.deepEqual(clinic.checkAnswer(unknown), { unknownRoute: true });
    assert.deepEqual(
      clinic.checkAnswer(
        answer({
          method: 'DELETE',
          status: 405,
          body: { message: 'Method DELETE is not allowed here', code: 'method_not_allowed' },
        }),
      ),
      { unknownRoute: true },
    );
    assert.throws(
      () => clinic.checkAnswer({ ...unknown, body: { error: 'not found' } }),
      /must have required property 'message'/,
    );
    assert.deepEqual(clinic.checkAnswer({ ...unknown, method: 'HEAD', contentType: undefined, body: undefined }), {
      unknownRoute: true,
    });
    assert.throws(
      () => clinic.checkAnswer({ ...unknown, status: 200, body: {} }),
      /no operation in the document has this path and method/,
    );
    assert.deepEqual(
      clinic.checkAnswer({ ...unknown, status: 200, body: {} }, () => true),
      { uncovered: true },
    );
  });
});
