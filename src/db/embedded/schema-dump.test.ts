import { describe, it } from '../../testing/node-test.ts';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { schemaDrift, stableDump } from './schema-dump.ts';

const committed = readFileSync(fileURLToPath(new URL('../../../migrations/schema.sql', import.meta.url)), 'utf8');

describe('the committed schema compared with the one the migrations build', () => {
  it('finds no drift when they are the same', () => {
    assert.equal(schemaDrift(committed, committed), undefined);
  });

  it('names the first line that differs and how to regenerate the file', () => {
    const built = committed.replace('    checksum text\n', '    checksum text,\n    applied_by text\n');
    const line = committed.split('\n').indexOf('    checksum text') + 1;
    assert.equal(
      schemaDrift(committed, built),
      `migrations/schema.sql is not the schema the migrations build; first difference at line ${line}:\n` +
        '  committed:             checksum text\n' +
        '  migrations build:      checksum text,\n' +
        'A migration changed the schema: run node --import tsx scripts/schema-dump.ts --write and commit migrations/schema.sql.',
    );
  });

  it('says where the committed file ends short of the schema', () => {
    const drift = schemaDrift(committed, `${committed}COMMENT ON TABLE public.users IS 'accounts';\n`);
    assert.match(drift ?? '', /committed: {9}\(end of file\)\n {2}migrations build: {2}COMMENT ON TABLE public\.users/);
  });
});

describe('a pg_dump made stable', () => {
  it('leaves out the versions and the \\restrict key that change from one dump to the next', () => {
    const dump = [
      '--',
      '-- Dumped from database version 18.6',
      '-- Dumped by pg_dump version 18.3',
      '\\restrict AbC123',
      '',
      'CREATE TABLE t ();',
      '\\unrestrict AbC123',
      '',
    ].join('\n');
    assert.equal(stableDump(dump), '--\n\nCREATE TABLE t ();\n');
  });
});
