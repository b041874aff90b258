import { after, before, describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testDatabases } from '../testing/test-db.ts';
import {
  fixedClock,
  PASSWORD,
  signIn,
  signUpAdmin,
  signUpPatient,
  startTestServer,
  uniqueEmail,
  type TestServer,
} from '../testing/http.ts';
import { makeApp } from '../app.ts';
import { systemClock } from '../domain/shared/clock.ts';
import { createMedoraServer } from './server.ts';
import { closeGracefully } from './shutdown.ts';
import { connect, type AddressInfo } from 'node:net';
import { get, type IncomingHttpHeaders } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { first, present } from '../testing/assert.ts';
import { appRoutes } from '../web/route-table.ts';

for (const target of testDatabases('one')) {
  describe(`HTTP foundation on ${target.name}`, () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer(target);
    });
    after(() => server.close());

    it("answers health with the database state, a request id and the security headers of data, a page with a page's", async () => {
      const res = await server.api('GET', '/api/health');
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, { status: 'ok', database: 'ok' });
      assert.match(res.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
      assert.equal(res.headers.get('content-security-policy'), "default-src 'none'; frame-ancestors 'none'");
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
      assert.equal(res.headers.get('x-frame-options'), 'DENY');
      const refused = await server.api('GET', '/api/no-such-thing');
      assert.equal(refused.status, 404);
      assert.equal(refused.headers.get('content-security-policy'), "default-src 'none'; frame-ancestors 'none'");

      const page = await fetch(`${server.url}/login`);
      assert.match(
        page.headers.get('content-security-policy') ?? '',
        /^default-src 'self'; script-src 'self';.*frame-ancestors 'none'$/,
      );
      assert.equal(page.headers.get('referrer-policy'), 'same-origin');
      assert.equal(page.headers.get('cross-origin-opener-policy'), 'same-origin');
    });

    it('asks browsers for HTTPS only (HSTS) when the request is known to have come over HTTPS', async () => {
      const viaHttps = await server.api('GET', '/api/health', { headers: { 'x-forwarded-proto': 'https' } });
      assert.equal(viaHttps.headers.get('strict-transport-security'), 'max-age=31536000');
      const page = await fetch(`${server.url}/login`, { headers: { 'x-forwarded-proto': 'https' } });
      assert.equal(page.headers.get('strict-transport-security'), 'max-age=31536000');
      assert.equal((await server.api('GET', '/api/health')).headers.get('strict-transport-security'), null);
    });

    it('answers malformed JSON with 400, not 500', async () => {
      const res = await fetch(`${server.url}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"email":',
      });
      assert.equal(res.status, 400);
      assert.equal((await res.json()).code, 'malformed_json');
    });

    it('refuses a body over the size limit with 413', async () => {
      const res = await server.api('POST', '/api/patients/register', { body: { name: 'x'.repeat(1_100_000) } });
      assert.equal(res.status, 413);
      assert.equal(res.body.code, 'too_large');
    });

    it('closes the connection after refusing a chunked body early, so no later request waits behind its unread rest', async () => {
      const socket = connect(Number(new URL(server.url).port), '127.0.0.1');
      const closed = new Promise<string>((resolve, reject) => {
        let received = '';
        socket.on('data', (chunk) => (received += chunk));
        socket.on('close', () => resolve(received));
        socket.on('error', reject);
      });
      const timer = setTimeout(() => socket.destroy(new Error('the server kept the connection open')), 10_000);
      try {
        socket.write(
          'POST /api/patients/register HTTP/1.1\r\nhost: medora.test\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n',
        );
        const chunk = 'x'.repeat(64 * 1024);
        // Past the 1 MiB limit, with more to come: the answer is due before the body ends.
        for (let i = 0; i < 20; i++) socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
        const answer = await closed;
        assert.match(answer, /^HTTP\/1\.1 413 /);
        assert.match(answer, /\r\nconnection: close\r\n/i);
      } finally {
        clearTimeout(timer);
        socket.destroy();
      }
    });

    it('reads multipart bodies whose boundary is mixed case, as browsers send them', async () => {
      const boundary = '----WebKitFormBoundaryAbCdEf012345';
      const body = [
        `--${boundary}`,
        'Content-Disposition: form-data; name="email"',
        '',
        'nobody@example.test',
        `--${boundary}`,
        'Content-Disposition: form-data; name="password"',
        '',
        'wrong',
        `--${boundary}--`,
        '',
      ].join('\r\n');
      const res = await fetch(`${server.url}/api/login`, {
        method: 'POST',
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        body,
      });
      assert.equal(res.status, 401, 'the fields were read, so the answer is about the credentials');
    });

    it('answers an unknown API path with 404 and a wrong method with 405 and Allow', async () => {
      assert.equal((await server.api('GET', '/api/nothing-here')).status, 404);
      const wrongMethod = await server.api('DELETE', '/api/login');
      assert.equal(wrongMethod.status, 405);
      assert.equal(wrongMethod.headers.get('allow'), 'POST');
      const readOnly = await server.api('POST', '/api/health');
      assert.equal(readOnly.status, 405);
      assert.equal(readOnly.headers.get('allow'), 'GET, HEAD');
    });

    it('registers a patient even when the body asks to be admin', async () => {
      const email = uniqueEmail('sneaky');
      const res = await server.api('POST', '/api/patients/register', {
        body: {
          name: 'Sneaky Sam',
          email,
          password: PASSWORD,
          phone: '555',
          birthdate: '1980-01-01',
          gender: 'male',
          role: 'admin',
        },
      });
      assert.equal(res.status, 202);
      const { token } = await signIn(server, email);
      assert.equal((await server.api('GET', '/api/user', { token })).body.role, 'patient');
    });

    it('answers a registered address, in any case, exactly as a new one, and keeps its account as it was', async () => {
      const { email } = await signUpPatient(server);
      const register = (address: string) =>
        server.api('POST', '/api/patients/register', {
          body: {
            name: 'Twin',
            email: address,
            password: 'the twin chose this',
            phone: '1',
            birthdate: '1980-01-01',
            gender: 'other',
          },
        });
      const freshEmail = uniqueEmail('fresh');
      const taken = await register(email.toUpperCase());
      const fresh = await register(freshEmail);
      assert.deepEqual([taken.status, fresh.status], [202, 202]);
      assert.deepEqual(Object.keys(taken.body), ['message']);
      assert.equal(taken.body.message.replace(email.toUpperCase(), 'X'), fresh.body.message.replace(freshEmail, 'X'));
      assert.equal(
        (await server.api('POST', '/api/login', { body: { email, password: 'the twin chose this' } })).status,
        401,
      );
      assert.ok(await signIn(server, email), 'the owner still signs in with their own password');
    });

    it('names each missing or bad registration field with 422', async () => {
      const res = await server.api('POST', '/api/patients/register', {
        body: { email: 'x', gender: 'unknown', birthdate: '1999-13-01' },
      });
      assert.equal(res.status, 422);
      assert.equal(res.body.code, 'invalid');
      for (const field of ['name', 'email', 'password', 'phone', 'birthdate', 'gender'])
        assert.ok(res.body.errors[field], field);
    });

    it('signs in with user, token and role, and refuses a wrong password with the same 401 as an unknown email', async () => {
      const { email } = await signUpPatient(server);
      const ok = await server.api('POST', '/api/login', { body: { email, password: PASSWORD, remember: true } });
      assert.equal(ok.status, 200);
      assert.deepEqual(Object.keys(ok.body).sort(), ['expires_at', 'persistent', 'role', 'token', 'user']);
      assert.equal(ok.body.persistent, true);
      assert.equal(ok.body.user.email, email);
      const wrong = await server.api('POST', '/api/login', { body: { email, password: 'wrong' } });
      const unknown = await server.api('POST', '/api/login', {
        body: { email: uniqueEmail('ghost'), password: 'wrong' },
      });
      assert.equal(wrong.status, 401);
      assert.deepEqual(wrong.body, unknown.body);
    });

    it('gives an admin created from the CLI use case a working token; a patient gets 403 on admin routes, audited', async () => {
      const admin = await signUpAdmin(server);
      assert.equal((await server.api('GET', '/api/user', { token: admin.token })).body.role, 'admin');
      const patient = await signUpPatient(server);
      const res = await server.api('GET', '/api/admin/statistics', { token: patient.token });
      assert.equal(res.status, 403);
      assert.equal(res.body.code, 'forbidden');
      const refused = await server.db.query(
        `select actor_user_id, action, entity, request_id, details from audit_log where actor_user_id = $1 and action = 'refused'`,
        [patient.user.id],
      );
      assert.deepEqual(refused, [
        {
          actor_user_id: patient.user.id,
          action: 'refused',
          entity: 'route',
          request_id: res.headers.get('x-request-id'),
          details: { attempt: 'GET /api/admin/statistics', reason: 'role' },
        },
      ]);
    });

    it('answers 401 without a token, with a forged one, and after logout', async () => {
      assert.equal((await server.api('GET', '/api/user')).status, 401);
      assert.equal((await server.api('GET', '/api/user', { token: 'forged' })).status, 401);
      assert.equal((await server.api('GET', '/api/patient/profile', { token: 'forged' })).status, 401);
      const { token } = await signUpPatient(server);
      assert.equal((await server.api('POST', '/api/logout', { token })).status, 200);
      const after = await server.api('GET', '/api/user', { token });
      assert.equal(after.status, 401);
      assert.equal(after.body.code, 'unauthenticated');
    });

    /** A server on a stopped clock: a wait the throttle asks for never runs out while a test looks. */
    async function onStoppedClock(fn: (stopped: TestServer) => Promise<void>): Promise<void> {
      const stopped = await startTestServer(target, { clock: fixedClock(new Date().toISOString()) });
      try {
        await fn(stopped);
      } finally {
        await stopped.close();
      }
    }

    it('answers 429 with Retry-After for an email and address pair after 10 failures, counted in the database', () =>
      onStoppedClock(async (stopped) => {
        const { email } = await signUpPatient(stopped);
        for (let i = 0; i < 10; i++)
          assert.equal((await stopped.api('POST', '/api/login', { body: { email, password: 'bad' } })).status, 401);
        const locked = await stopped.api('POST', '/api/login', { body: { email, password: PASSWORD } });
        assert.equal(locked.status, 429);
        assert.equal(locked.body.code, 'too_many_attempts');
        assert.equal(locked.headers.get('retry-after'), '5');
      }));

    it('checks at most 10 of 50 parallel wrong passwords, refuses the rest with Retry-After, and lets another account in', () =>
      onStoppedClock(async (stopped) => {
        const { email } = await signUpPatient(stopped);
        const other = await signUpPatient(stopped);
        const answers = await Promise.all(
          Array.from({ length: 50 }, () =>
            stopped.api('POST', '/api/login', { body: { email, password: 'wrong guess' } }),
          ),
        );
        const statuses = answers.map((a) => a.status);
        assert.equal(statuses.filter((s) => s === 401).length, 10, statuses.join(','));
        for (const refused of answers.filter((a) => a.status === 429))
          assert.ok(Number(refused.headers.get('retry-after')) >= 1);
        assert.equal(
          (await stopped.api('POST', '/api/login', { body: { email: other.email, password: PASSWORD } })).status,
          200,
        );
      }));

    it('answers 401 with WWW-Authenticate: Bearer', async () => {
      const res = await server.api('GET', '/api/user', { token: 'not-a-session' });
      assert.equal(res.status, 401);
      assert.equal(res.headers.get('www-authenticate'), 'Bearer');
    });
  });
}

describe('client address behind a proxy', () => {
  it('counts failures per address our proxy wrote, whatever the client forges to its left', async () => {
    const pglite = first(testDatabases('one'));
    const database = await pglite.open();
    const app = makeApp({ db: database.db, clock: systemClock, config: { clinicTz: 'UTC', clinicName: 'T' } });
    const server = createMedoraServer(app, { trustProxy: 1, log: () => {} });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/login`;
    // The client writes any X-Forwarded-For it likes; our one proxy appends the address it really came from.
    const attempt = (client: string, forged: string, password = 'bad') =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `${forged}, ${client}` },
        body: JSON.stringify({ email: 'who@example.test', password }),
      });
    try {
      for (let i = 0; i < 10; i++) await attempt('203.0.113.5', `10.0.0.${i}`);
      assert.equal(
        (await attempt('203.0.113.5', '10.0.0.99')).status,
        429,
        'a forged left-most entry does not reset the count',
      );
      assert.equal((await attempt('198.51.100.7', '203.0.113.5')).status, 401, 'another client is not locked out');
    } finally {
      await closeGracefully(server, 100);
      await database.drop();
    }
  });
});

describe('static UI', () => {
  it("serves files, falls back to index.html for client routes, 404s a missing asset and a path none of the UI's routes", async () => {
    const root = mkdtempSync(join(tmpdir(), 'medora-static-'));
    mkdirSync(join(root, 'assets'));
    writeFileSync(join(root, 'index.html'), '<!doctype html><head><title>Medora</title></head>');
    const pageFor = (route: string) =>
      `<!doctype html><head><title>Medora</title><meta name="route" content="${route}"></head>`;
    const routes = appRoutes().map(({ pattern }) => ({ pattern, html: pageFor(pattern) }));
    writeFileSync(join(root, 'app-routes.json'), JSON.stringify({ routes, notFound: pageFor('not found') }));
    const script = 'console.log(1);\n'.repeat(100);
    writeFileSync(join(root, 'assets', 'app-abc123.js'), script);
    writeFileSync(join(root, 'assets', 'tiny-abc123.js'), 'console.log(1)');
    const pglite = first(testDatabases('one'));
    const database = await pglite.open();
    const config = { clinicTz: 'Europe/Berlin', clinicName: 'Müller & "Söhne" <Klinik>', clinicLocale: 'de-DE' };
    const app = makeApp({ db: database.db, clock: systemClock, config });
    const server = createMedoraServer(app, { staticDir: root, log: () => {} });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      // Every page carries the clinic's settings as GET /api/clinic answers them, the name's markup escaped.
      for (const path of ['/user/patient/bills', '/nowhere']) {
        const carried = /<meta name="medora-clinic" content="([^"<>]*)" \/><\/head>/.exec(
          await (await fetch(`${base}${path}`)).text(),
        );
        assert.ok(carried?.[1], `${path} carries the clinic's settings`);
        const unescaped = carried[1].replace(
          /&(quot|lt|gt|#39|amp);/g,
          (_, e: string) => ({ quot: '"', lt: '<', gt: '>', '#39': "'", amp: '&' })[e] ?? e,
        );
        assert.deepEqual(JSON.parse(unescaped), (await (await fetch(`${base}/api/clinic`)).json()) as unknown, path);
      }
      const asset = await fetch(`${base}/assets/app-abc123.js`);
      assert.equal(asset.status, 200);
      assert.match(asset.headers.get('cache-control') ?? '', /immutable/);
      const clientRoute = await fetch(`${base}/user/patient/bills`);
      assert.equal(clientRoute.status, 200);
      assert.match(
        await clientRoute.text(),
        /content="\/user\/patient\/bills"/,
        "the route's own page, with its chunks preloaded",
      );
      assert.match(
        await (await fetch(`${base}/user/admin/departments/create`)).text(),
        /content="\/user\/admin\/departments\/create"/,
        'the first route that matches, as the router picks',
      );
      for (const path of [
        '/',
        '/LOGIN/',
        '/user',
        '/user/doctor',
        '/user/patient/doctors/7',
        '/user/admin/departments/edit/3',
        '/user/admin/account',
      ]) {
        assert.equal((await fetch(`${base}${path}`)).status, 200, path);
      }
      assert.equal((await fetch(`${base}/assets/missing.js`)).status, 404);
      for (const path of ['/nonexistent.php', '/user/patient/nowhere', '/user/patient/doctors/7/more', '/login.']) {
        const unknown = await fetch(`${base}${path}`);
        assert.equal(unknown.status, 404, path);
        assert.match(await unknown.text(), /content="not found"/, 'the app shell renders the not-found page');
      }
      assert.equal((await fetch(`${base}/nonexistent.php`, { method: 'HEAD' })).status, 404);
      const outside = await fetch(`${base}/../../etc/passwd`);
      assert.match(await outside.text(), /<title>Medora/, 'a path outside the root gets the app shell, never the file');

      // fetch() asks for gzip and unpacks it; node:http shows the bytes as sent.
      const raw = (encoding?: string, path = '/assets/app-abc123.js', headers: Record<string, string> = {}) =>
        new Promise<{ status?: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
          get(
            `${base}${path}`,
            { headers: { ...(encoding && { 'accept-encoding': encoding }), ...headers } },
            (res) => {
              const chunks: Buffer[] = [];
              res
                .on('data', (chunk) => chunks.push(chunk))
                .on('end', () =>
                  resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }),
                );
            },
          ).on('error', reject);
        });
      const zipped = await raw('br, gzip;q=0.8');
      assert.equal(zipped.headers['content-encoding'], 'gzip');
      assert.equal(zipped.headers.vary, 'accept-encoding');
      assert.equal(gunzipSync(zipped.body).toString(), script);
      const plain = await raw();
      assert.equal(plain.headers['content-encoding'], undefined);
      assert.equal(plain.body.toString(), script);
      assert.equal((await raw('gzip;q=0')).headers['content-encoding'], undefined);
      assert.equal(
        (await raw('gzip', '/assets/tiny-abc123.js')).headers['content-encoding'],
        undefined,
        'a file under 1 KB goes as it is',
      );

      // Each representation has its strong tag; its own answers 304, another 200.
      assert.match(plain.headers.etag ?? '', /^"[\w-]+"$/);
      assert.notEqual(zipped.headers.etag, plain.headers.etag);
      const notModified = await raw('gzip', '/assets/app-abc123.js', {
        'if-none-match': present(zipped.headers.etag, 'ETag'),
      });
      assert.equal(notModified.status, 304);
      assert.equal(notModified.body.length, 0);
      assert.equal(notModified.headers.etag, zipped.headers.etag);
      assert.equal(notModified.headers.vary, 'accept-encoding');
      assert.match(notModified.headers['cache-control'] ?? '', /immutable/);
      assert.equal(notModified.headers['content-encoding'], undefined);
      assert.equal(
        (await raw(undefined, '/assets/app-abc123.js', { 'if-none-match': present(plain.headers.etag, 'ETag') }))
          .status,
        304,
      );
      assert.equal((await raw(undefined, '/assets/app-abc123.js', { 'if-none-match': '"another"' })).status, 200);
      const shell = await raw(undefined, '/user/patient/bills');
      assert.equal(shell.headers['cache-control'], 'no-cache', 'a new release is seen at once');
      assert.ok(shell.headers.etag);
      const shellAgain = await raw(undefined, '/user/patient/bills', {
        'if-none-match': present(shell.headers.etag, 'ETag'),
      });
      assert.equal(shellAgain.status, 304);
      assert.equal(shellAgain.headers['cache-control'], 'no-cache');
      assert.equal((await raw(undefined, '/user/patient/bills', { 'if-none-match': '"another"' })).status, 200);
      assert.notEqual(
        (await raw(undefined, '/user/admin/account')).headers.etag,
        shell.headers.etag,
        "each route's page its own tag",
      );
      const missing = await raw(undefined, '/nonexistent.php');
      assert.equal(missing.status, 404);
      assert.equal(missing.headers.etag, undefined);
    } finally {
      await closeGracefully(server, 100);
      await database.drop();
    }
  });
});
