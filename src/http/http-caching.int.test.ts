import { after, before, describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import { request, type IncomingHttpHeaders } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { first, present } from '../testing/assert.ts';
import { clinicFixtures } from '../testing/records-fixtures.ts';
import { signUpAdmin, startTestServer, type TestServer } from '../testing/http.ts';
import { testDatabases } from '../testing/test-db.ts';

interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** fetch() asks for gzip and unpacks it; node:http shows the headers and bytes as sent. */
function raw(url: string, opts: { method?: string; headers?: Record<string, string> } = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: opts.method ?? 'GET', headers: opts.headers ?? {}, timeout: 10_000 }, (res) => {
      const chunks: Buffer[] = [];
      res
        .on('data', (chunk: Buffer) => chunks.push(chunk))
        .on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject).end();
  });
}

describe('HTTP compression and conditional requests', () => {
  let server: TestServer;
  let admin: { token: string };

  before(async () => {
    server = await startTestServer(first(testDatabases('one')));
    admin = await signUpAdmin(server);
    await server.db.query(
      `with made as (
         insert into users (name, email, password_hash, role)
         select 'Dr. Doctor Number ' || n, 'doctor.' || n || '@example.test', 'x', 'doctor' from generate_series(1, 40) as n
         returning id)
       insert into doctors (user_id, bio) select id, 'Sees patients on weekdays.' from made`,
    );
  });
  after(() => server.close());

  const doctors = (headers: Record<string, string> = {}, method = 'GET') =>
    raw(`${server.url}/api/admin/doctors?per_page=50`, {
      method,
      headers: { authorization: `Bearer ${admin.token}`, ...headers },
    });

  it('compresses a large JSON list for a client that asks, to the same JSON, and sends it plain otherwise', async () => {
    const plain = await doctors();
    assert.equal(plain.status, 200);
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.equal(plain.headers.vary, 'accept-encoding');
    assert.equal(plain.headers['cache-control'], 'no-store', 'private data stays unstored');
    assert.equal(plain.headers.etag, undefined, 'no ETag on an answer nobody may store');
    assert.ok(plain.body.length > 4096, `a list of ${plain.body.length} bytes`);
    const json = JSON.parse(plain.body.toString());
    assert.equal(json.doctors.length, 40);

    const gzipped = await doctors({ 'accept-encoding': 'gzip' });
    assert.equal(gzipped.headers['content-encoding'], 'gzip');
    assert.equal(gzipped.headers.vary, 'accept-encoding');
    assert.equal(Number(gzipped.headers['content-length']), gzipped.body.length);
    assert.ok(gzipped.body.length < plain.body.length / 3, `${plain.body.length} → ${gzipped.body.length} bytes`);
    assert.deepEqual(JSON.parse(gunzipSync(gzipped.body).toString()), json);

    const brotli = await doctors({ 'accept-encoding': 'gzip, deflate, br' });
    assert.equal(brotli.headers['content-encoding'], 'br');
    assert.deepEqual(JSON.parse(brotliDecompressSync(brotli.body).toString()), json);
  });

  it('honours q-values: q=0 refuses a coding, the higher q wins, * stands for the rest', async () => {
    assert.equal((await doctors({ 'accept-encoding': 'gzip;q=0' })).headers['content-encoding'], undefined);
    assert.equal((await doctors({ 'accept-encoding': 'br;q=0, gzip;q=0' })).headers['content-encoding'], undefined);
    assert.equal((await doctors({ 'accept-encoding': 'br;q=0.5, gzip;q=0.8' })).headers['content-encoding'], 'gzip');
    assert.equal((await doctors({ 'accept-encoding': 'br;q=0, *' })).headers['content-encoding'], 'gzip');
    assert.equal((await doctors({ 'accept-encoding': 'identity' })).headers['content-encoding'], undefined);
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const get = await doctors({ 'accept-encoding': 'gzip' });
    const head = await doctors({ 'accept-encoding': 'gzip' }, 'HEAD');
    assert.equal(head.status, 200);
    assert.equal(head.body.length, 0);
    for (const name of ['content-encoding', 'content-length', 'content-type', 'vary', 'cache-control'])
      assert.equal(head.headers[name], get.headers[name], name);
  });

  it('leaves a small answer uncompressed', async () => {
    const live = await raw(`${server.url}/api/health/live`, { headers: { 'accept-encoding': 'gzip, br' } });
    assert.equal(live.status, 200);
    assert.ok(live.body.length < 1024);
    assert.equal(live.headers['content-encoding'], undefined);
    assert.equal(live.headers.vary, undefined);
  });

  it('tags the calendar feed and answers 304 to its own ETag, a second later too, until a visit changes', async () => {
    const fixtures = clinicFixtures(server);
    const doctor = await fixtures.doctor('Dr. Feed');
    const patient = await fixtures.patient('Fay Feed');
    // The feed holds the weeks around today, so the visits are days from now.
    const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
    const visit = await fixtures.appointment({ doctor, patientId: patient.patientId, date: inDays(7) });
    await fixtures.appointment({ doctor, patientId: patient.patientId, date: inDays(14) });
    const made = await server.api('POST', '/api/user/calendar-feed', { token: patient.token });
    assert.equal(made.status, 201);
    const url = made.body.url as string;

    const feed = await raw(url);
    assert.equal(feed.status, 200);
    assert.match(feed.body.toString(), /BEGIN:VEVENT/);
    const etag = feed.headers.etag;
    assert.match(
      etag ?? '',
      /^"[\w-]+"$/,
      'strong: each event is stamped with when its visit last changed, not when the feed was asked for',
    );
    assert.equal(feed.headers['cache-control'], 'private, no-cache');

    await new Promise((resolve) => setTimeout(resolve, 1100));
    const revalidated = await raw(url, { headers: { 'if-none-match': present(etag, 'ETag') } });
    assert.equal(revalidated.status, 304);
    assert.equal(revalidated.body.length, 0);
    assert.equal(revalidated.headers.etag, etag);
    assert.equal(revalidated.headers['cache-control'], 'private, no-cache');
    assert.equal(
      (await raw(url, { headers: { 'if-none-match': `"other", W/${etag}` } })).status,
      304,
      'weak comparison',
    );
    assert.equal((await raw(url, { method: 'HEAD', headers: { 'if-none-match': present(etag, 'ETag') } })).status, 304);
    assert.equal((await raw(url, { headers: { 'if-none-match': '"something-else"' } })).status, 200);

    const zipped = await raw(url, { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(zipped.headers['content-encoding'], 'gzip', `a feed of ${feed.body.length} bytes`);
    assert.notEqual(zipped.headers.etag, etag, 'each coding is its own representation');
    assert.equal(gunzipSync(zipped.body).toString(), feed.body.toString());
    assert.equal(
      (
        await raw(url, {
          headers: { 'accept-encoding': 'gzip', 'if-none-match': present(zipped.headers.etag, 'ETag') },
        })
      ).status,
      304,
    );

    await server.db.query(`update appointments set status = 'cancelled' where id = $1`, [visit]);
    const changed = await raw(url, { headers: { 'if-none-match': present(etag, 'ETag') } });
    assert.equal(changed.status, 200);
    assert.notEqual(changed.headers.etag, etag);
  });
});
