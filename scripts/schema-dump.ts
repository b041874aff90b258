// migrations/schema.sql: the schema the migrations build, dumped from a copy of the migrated embedded database the
// tests use (built once per version of the migrations), so no PostgreSQL server is needed.
// --write rewrites the file; --check changes nothing and fails when the file differs (scripts/check); with neither,
// the schema goes to stdout.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createPglite } from '../src/db/embedded/pglite.ts';
import { dumpSchema, SCHEMA_FILE, schemaDrift } from '../src/db/embedded/schema-dump.ts';
import { embeddedDataDir } from '../src/testing/test-db.ts';

const file = join(import.meta.dirname, '..', SCHEMA_FILE);
const { dataDir, remove } = await embeddedDataDir();
let schema: string;
try {
  const pglite = await createPglite(join(dataDir, 'pglite'));
  try {
    schema = await dumpSchema(pglite);
  } finally {
    await pglite.close();
  }
} finally {
  await remove();
}

if (process.argv.includes('--write')) {
  writeFileSync(file, schema);
} else if (process.argv.includes('--check')) {
  const drift = schemaDrift(existsSync(file) ? readFileSync(file, 'utf8') : '', schema);
  if (drift) {
    console.error(drift);
    process.exitCode = 1;
  }
} else {
  process.stdout.write(schema);
}
