// Writes the OpenAPI document (as /api/openapi.json serves it) to the file named, for the tools that read a file:
// redocly's lint in scripts/check.
import { writeFileSync } from 'node:fs';
import { openApiDocument } from '../src/http/openapi/document.ts';

const [file] = process.argv.slice(2);
if (!file) {
  console.error('usage: node --import tsx scripts/openapi-json.ts <file>');
  process.exit(2);
}
writeFileSync(file, `${JSON.stringify(openApiDocument(), null, 2)}\n`);
