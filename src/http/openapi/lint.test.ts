import assert from 'node:assert/strict';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, it } from '../../testing/node-test.ts';
import { present } from '../../testing/assert.ts';
import { openApiDocument } from './document.ts';

describe('the OpenAPI document', () => {
  it('is valid OpenAPI 3.1 by its official schema', async () => {
    const validator = new Validator();
    // A copy: the validator works on what it is given.
    const result = await validator.validate(structuredClone(openApiDocument()));
    assert.deepEqual(result.errors ?? [], [], 'no errors');
    assert.equal(result.valid, true);
    assert.equal(validator.version, '3.1');
  });

  it('would be refused with an answer that has no description', async () => {
    const broken = structuredClone(openApiDocument());
    (present(broken.paths['/api/health/live']?.get, 'GET /api/health/live').responses as Record<string, object>)[
      '200'
    ] = {};
    assert.equal((await new Validator().validate(broken)).valid, false);
  });
});
