import { describe, it } from '../../testing/node-test.ts';
import assert from 'node:assert/strict';
import { DomainError } from '../../domain/shared/errors.ts';
import { readInput } from '../../domain/shared/read-fields.ts';
import { id, keywords, object, type Static } from '../../domain/shared/wire-schema.ts';
import { openApiDocument } from './document.ts';

// A request written once gives the use case's reading, the TypeScript type and the OpenAPI document: renaming
// one of its fields renames it in all three, with nothing else to edit.
const Before = object({ doctor_id: id() });
const Renamed = object({ physician_id: id() });

const documented = (body: typeof Before | typeof Renamed) => {
  const document = openApiDocument([
    {
      tag: 'Test',
      description: 'A request renamed',
      operations: { 'POST /api/test': { summary: 'Test', access: 'public', body, answers: { 204: null } } },
    },
  ]);
  const requestBody = document.paths['/api/test']?.post?.requestBody as {
    content: Record<string, { schema: Parameters<typeof keywords>[0] }>;
  };
  return keywords(requestBody.content['application/json']?.schema ?? {});
};

function fieldsRefused(schema: typeof Before | typeof Renamed, input: unknown): string[] {
  try {
    readInput(schema, input);
    return [];
  } catch (error) {
    assert.ok(error instanceof DomainError);
    return Object.keys(error.fields ?? {});
  }
}

describe('one description of a request', () => {
  it('renames a field in the validation, the document and the type at once', () => {
    assert.deepEqual(fieldsRefused(Before, { doctor_id: 3 }), []);
    assert.deepEqual(fieldsRefused(Renamed, { doctor_id: 3 }), ['physician_id']);
    assert.deepEqual(readInput(Renamed, { physician_id: '3' }), { physician_id: 3 });

    assert.deepEqual(Object.keys(documented(Before).properties as object), ['doctor_id']);
    assert.deepEqual(Object.keys(documented(Renamed).properties as object), ['physician_id']);
    assert.deepEqual(documented(Renamed).required, ['physician_id']);
    assert.equal(documented(Renamed).additionalProperties, false);

    const renamed: Static<typeof Renamed> = { physician_id: 3 };
    // @ts-expect-error the old name is no longer the request's
    const old: Static<typeof Renamed> = { doctor_id: 3 };
    assert.notDeepEqual(renamed, old);
  });
});
