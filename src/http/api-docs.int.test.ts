import { after, before, describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import { first } from '../testing/assert.ts';
import { startTestServer, type TestServer } from '../testing/http.ts';
import { testDatabases } from '../testing/test-db.ts';
import { openApiDocument } from './openapi/document.ts';

// The document and its viewer read no data, so PGlite alone tells whether they are served.
describe('the API description', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer(first(testDatabases('one')));
  });
  after(() => server.close());

  it('serves the OpenAPI document to anyone, revalidated by its ETag', async () => {
    const answer = await server.api('GET', '/api/openapi.json');
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body, JSON.parse(JSON.stringify(openApiDocument())));
    assert.equal(answer.headers.get('cache-control'), 'no-cache');
    const etag = answer.headers.get('etag');
    assert.ok(etag);
    assert.equal((await server.api('GET', '/api/openapi.json', { headers: { 'if-none-match': etag } })).status, 304);
  });

  it('serves swagger-ui from the installed package, under the strict Content-Security-Policy', async () => {
    const page = await fetch(`${server.url}/api/docs`);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(page.headers.get('content-security-policy') ?? '', /script-src 'self';/);
    const html = await page.text();
    assert.doesNotMatch(html, /<script>|https?:\/\//, 'no inline script and nothing from another origin');
    const assets = [...html.matchAll(/(?:src|href)="(\/api\/docs\/[^"]+)"/g)].map((found) => found[1] ?? '');
    assert.deepEqual(assets.sort(), [
      '/api/docs/favicon-32x32.png',
      '/api/docs/swagger-ui-bundle.js',
      '/api/docs/swagger-ui.css',
      '/api/docs/viewer.js',
    ]);
    for (const asset of assets) assert.equal((await fetch(`${server.url}${asset}`)).status, 200, asset);
    assert.match(await (await fetch(`${server.url}/api/docs/viewer.js`)).text(), /url: '\/api\/openapi\.json'/);
  });

  it('answers 404 for any other file, however it is named', async () => {
    for (const name of [
      'index.html',
      'package.json',
      'constructor',
      '__proto__',
      '..%2Fpackage.json',
      'swagger-ui-bundle.js.map',
    ]) {
      const answer = await server.api('GET', `/api/docs/${name}`);
      assert.equal(answer.status, 404, name);
      assert.equal(answer.body.code, 'not_found');
    }
  });
});
