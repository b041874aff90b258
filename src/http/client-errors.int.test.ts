import { after, before, describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { startTestServer, type TestServer } from '../testing/http.ts';
import { testDatabases } from '../testing/test-db.ts';

/** Writes `raw` on a connection of its own and reads until the server closes it. */
function exchange(server: TestServer, raw: string): Promise<string> {
  const url = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => (text += chunk));
    socket.on('end', () => resolve(text));
    socket.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'ECONNRESET' && text ? resolve(text) : reject(error),
    );
    socket.write(raw);
  });
}

/** The status, headers and JSON body of a raw answer. */
function parse(answer: string): { status: number; headers: Map<string, string>; body: unknown } {
  const [head = '', body = ''] = answer.split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = new Map(
    lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
  );
  return { status: Number(statusLine.split(' ')[1]), headers, body: body ? JSON.parse(body) : undefined };
}

for (const target of testDatabases('one')) {
  describe("requests node's parser refuses", () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer(target);
    });
    after(() => server?.close());

    it("answers headers over 16 KB with 431 and Medora's JSON error body, not node's bare status line", async () => {
      const answer = parse(
        await exchange(server, `GET /api/health/live HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(17_000)}\r\n\r\n`),
      );
      assert.equal(answer.status, 431);
      assert.deepEqual(answer.body, {
        message: 'The request line or its headers are too large (16 KB at most).',
        code: 'headers_too_large',
      });
      assert.equal(answer.headers.get('content-type'), 'application/json; charset=utf-8');
      assert.equal(answer.headers.get('x-content-type-options'), 'nosniff');
      assert.match(answer.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
    });

    it('answers a request line over 16 KB the same way', async () => {
      const answer = parse(
        await exchange(server, `GET /api/health/live?q=${'a'.repeat(17_000)} HTTP/1.1\r\nHost: x\r\n\r\n`),
      );
      assert.deepEqual([answer.status, (answer.body as { code: string }).code], [431, 'headers_too_large']);
    });

    it('answers malformed HTTP with 400 and the JSON error body, and still serves the next connection', async () => {
      const answer = parse(await exchange(server, 'NOT HTTP AT ALL\r\n\r\n'));
      assert.deepEqual([answer.status, (answer.body as { code: string }).code], [400, 'bad_request']);
      assert.equal((await server.api('GET', '/api/health/live')).status, 200);
    });
  });
}
